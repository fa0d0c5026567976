import java.math.BigDecimal;
import java.sql.*;

/** pgJDBC and DECIMAL: setBigDecimal / getBigDecimal, column metadata, text and binary transfer. */
public class JdbcDecimalProbe {
  public static void main(String[] args) throws Exception {
    String base = "jdbc:postgresql://127.0.0.1:" + args[0] + "/qdb";
    for (String mode : new String[] { "text", "binary" }) {
      String url = base + (mode.equals("binary") ? "?prepareThreshold=-1&binaryTransfer=true" : "?prepareThreshold=0&binaryTransfer=false");
      try (Connection c = DriverManager.getConnection(url, "admin", "quest")) {
        String table = "jdec_" + mode;
        try (Statement s = c.createStatement()) { s.execute("create table " + table + " (id int, price decimal(18,4), wide decimal(40,12))"); }
        try (PreparedStatement ps = c.prepareStatement("insert into " + table + " values (?, ?, ?)")) {
          ps.setInt(1, 1); ps.setBigDecimal(2, new BigDecimal("-1234.5678")); ps.setBigDecimal(3, new BigDecimal("123456789012345678901234.000000000001")); ps.executeUpdate();
          ps.setInt(1, 2); ps.setBigDecimal(2, new BigDecimal("0.05")); ps.setNull(3, Types.NUMERIC); ps.executeUpdate();
        }
        StringBuilder out = new StringBuilder();
        try (PreparedStatement ps = c.prepareStatement("select price, wide, price * 2m from " + table + " where price > ? order by id")) {
          ps.setBigDecimal(1, new BigDecimal("-10000"));
          try (ResultSet rs = ps.executeQuery()) {
            ResultSetMetaData md = rs.getMetaData();
            out.append(md.getColumnType(1)).append(',').append(md.getColumnTypeName(1)).append(',').append(md.getPrecision(1)).append(',').append(md.getScale(1)).append(',').append(md.getColumnClassName(1)).append(';');
            while (rs.next()) {
              BigDecimal w = rs.getBigDecimal(2);
              out.append(rs.getBigDecimal(1).toPlainString()).append(',').append(w == null ? "null" : w.toPlainString()).append(',').append(rs.getBigDecimal(3).toPlainString()).append(';');
            }
          }
        }
        System.out.println(mode + "=" + out);
      }
    }
  }
}
