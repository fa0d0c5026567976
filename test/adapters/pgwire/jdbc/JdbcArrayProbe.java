import java.sql.*;
import java.util.Arrays;

/** pgJDBC and float8[]: setArray with createArrayOf, getArray of 1-D and 2-D arrays, text and binary transfer. */
public class JdbcArrayProbe {
  public static void main(String[] args) throws Exception {
    String base = "jdbc:postgresql://127.0.0.1:" + args[0] + "/qdb";
    for (String mode : new String[] { "text", "binary" }) {
      String url = base + (mode.equals("binary") ? "?prepareThreshold=-1&binaryTransfer=true" : "?prepareThreshold=0&binaryTransfer=false");
      try (Connection c = DriverManager.getConnection(url, "admin", "quest")) {
        String table = "jarr_" + mode;
        try (Statement s = c.createStatement()) { s.execute("create table " + table + " (id int, v double[], m double[][])"); }
        try (PreparedStatement ps = c.prepareStatement("insert into " + table + " values (?, ?, ?)")) {
          ps.setInt(1, 1);
          ps.setArray(2, c.createArrayOf("float8", new Double[] { 1.5, null, 3.0 }));
          ps.setArray(3, c.createArrayOf("float8", new Double[][] { { 1.0, 2.0 }, { 3.0, 4.0 } }));
          ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("select v, m, array_sum(m) from " + table); ResultSet rs = ps.executeQuery()) {
          rs.next();
          Object v = rs.getArray(1).getArray();
          Object m = rs.getArray(2).getArray();
          System.out.println(mode + "=" + Arrays.deepToString((Object[]) v) + ";" + Arrays.deepToString((Object[]) m) + ";" + rs.getDouble(3) + ";" + rs.getArray(1).getBaseTypeName());
        }
      }
    }
  }
}
