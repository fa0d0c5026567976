import java.sql.*;

/** Tiny pgJDBC client for jdbc.test.ts: prints one "key=value" line per check. */
public class JdbcProbe {
  public static void main(String[] args) throws Exception {
    String url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/qdb";
    try (Connection c = DriverManager.getConnection(url, "admin", "quest")) {
      try (PreparedStatement ps = c.prepareStatement("select i, s from t where i = ?")) {
        ps.setInt(1, 3);
        try (ResultSet rs = ps.executeQuery()) { rs.next(); System.out.println("param=" + rs.getInt(1) + "," + rs.getString(2)); }
      }
      try (PreparedStatement ps = c.prepareStatement("select ts from t where ts = ?")) {
        ps.setTimestamp(1, Timestamp.valueOf("2024-01-03 00:00:00"));
        try (ResultSet rs = ps.executeQuery()) { rs.next(); System.out.println("ts=" + rs.getTimestamp(1)); }
      }
      c.setAutoCommit(false);
      try (Statement st = c.createStatement()) {
        st.setFetchSize(1000);
        long n = 0, sum = 0;
        try (ResultSet rs = st.executeQuery("select x from long_sequence(100000)")) { while (rs.next()) { n++; sum += rs.getLong(1); } }
        System.out.println("fetch=" + n + "," + sum);
      }
      c.setAutoCommit(true);
      DatabaseMetaData md = c.getMetaData();
      System.out.println("product=" + md.getDatabaseProductName() + " " + md.getDatabaseProductVersion());
      StringBuilder tables = new StringBuilder();
      try (ResultSet rs = md.getTables(null, "public", "%", new String[] {"TABLE"})) { while (rs.next()) tables.append(rs.getString("TABLE_NAME")).append(';'); }
      System.out.println("tables=" + tables);
    }
  }
}
