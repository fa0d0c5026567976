import java.sql.*;

/** pgJDBC login for pgwire-token.test.ts: args port, user, password; prints "ok=<current_user()>" or "error=<SQLState>". */
public class TokenProbe {
  public static void main(String[] args) throws Exception {
    String url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/qdb";
    try (Connection c = DriverManager.getConnection(url, args[1], args[2]); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("select current_user()")) {
      rs.next();
      System.out.println("ok=" + rs.getString(1));
    } catch (SQLException e) {
      System.out.println("error=" + e.getSQLState());
    }
  }
}
