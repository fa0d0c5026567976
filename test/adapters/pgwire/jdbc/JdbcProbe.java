import java.sql.*;

/** Tiny pgJDBC client for jdbc.test.ts: prints one "key=value" line per check. */
public class JdbcProbe {
  /** The named columns of every row, "a,b;" per row. */
  static String rows(ResultSet rs, String... cols) throws SQLException {
    StringBuilder sb = new StringBuilder();
    try (rs) {
      while (rs.next()) {
        for (int i = 0; i < cols.length; i++) sb.append(i == 0 ? "" : ",").append(rs.getString(cols[i]));
        sb.append(';');
      }
    }
    return sb.toString();
  }

  /** The result's column names, upper-cased (JDBC reads them case-insensitively). */
  static String columnNames(ResultSet rs) throws SQLException {
    StringBuilder sb = new StringBuilder();
    ResultSetMetaData m = rs.getMetaData();
    for (int i = 1; i <= m.getColumnCount(); i++) sb.append(i == 1 ? "" : ",").append(m.getColumnName(i).toUpperCase());
    return sb.toString();
  }

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
      System.out.println("tablesAll=" + rows(md.getTables(null, null, null, null), "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE"));
      System.out.println("columns=" + rows(md.getColumns(null, "public", "t", "%"), "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE", "NULLABLE", "ORDINAL_POSITION", "IS_NULLABLE"));
      System.out.println("columnsPattern=" + rows(md.getColumns(null, null, "t", "s%"), "TABLE_SCHEM", "COLUMN_NAME"));
      ResultSet pk = md.getPrimaryKeys(null, "public", "t");
      System.out.println("pkColumns=" + columnNames(pk));
      System.out.println("pk=" + rows(pk, "COLUMN_NAME"));
      System.out.println("schemas=" + rows(md.getSchemas(), "TABLE_SCHEM"));
      System.out.println("schemasPattern=" + rows(md.getSchemas(null, "pub%"), "TABLE_SCHEM"));
      ResultSet idx = md.getIndexInfo(null, "public", "t", false, true);
      System.out.println("indexColumns=" + columnNames(idx));
      System.out.println("index=" + rows(idx, "INDEX_NAME"));
      System.out.println("importedKeys=" + rows(md.getImportedKeys(null, "public", "t"), "FK_NAME"));
    }
  }
}
