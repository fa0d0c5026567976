import java.sql.*;

/** pgJDBC SCRAM-SHA-256 login for scram.test.ts: args port, password; prints "ok=<select 9>" or "error=<SQLState>". */
public class ScramProbe {
  public static void main(String[] args) throws Exception {
    String url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/qdb";
    try (Connection c = DriverManager.getConnection(url, "admin", args[1]); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("select 9")) {
      rs.next();
      System.out.println("ok=" + rs.getInt(1));
    } catch (SQLException e) {
      System.out.println("error=" + e.getSQLState());
    }
  }
}
