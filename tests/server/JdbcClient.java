// A small pgjdbc client for tests/server/jdbc_test.py: plain statements, prepared
// statements (server-prepared from the first use), BigDecimal parameters and results in
// binary (binaryTransferEnable=NUMERIC), a CALL, a PL/pgSQL error with its SQLSTATE,
// autocommit off (BEGIN, refused until transaction blocks exist), and the connection's metadata. Prints "ok NAME" or
// "FAIL NAME ..." per check; exit status 1 if any failed.
import java.math.BigDecimal;
import java.sql.*;

public class JdbcClient {
  static int failures = 0;

  static void check(String name, boolean ok, Object detail) {
    System.out.println((ok ? "ok    " : "FAIL  ") + name + (ok ? "" : "  " + detail));
    if (!ok) failures++;
  }

  public static void main(String[] args) throws Exception {
    String url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/caracal?user=tester&prepareThreshold=1"
        + "&binaryTransferEnable=NUMERIC,INT4,INT8,TIMESTAMP";
    try (Connection c = DriverManager.getConnection(url)) {
      check("connect, server version", c.getMetaData().getDatabaseProductVersion().startsWith("15"),
            c.getMetaData().getDatabaseProductVersion());
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE acc (id integer PRIMARY KEY, bal numeric(14,2) NOT NULL, name varchar(20), ts timestamp)");
        s.execute("CREATE FUNCTION deposit(p_id integer, p_amount numeric) RETURNS numeric LANGUAGE plpgsql AS $$ "
            + "DECLARE v numeric; BEGIN UPDATE acc SET bal = bal + p_amount WHERE id = p_id RETURNING bal INTO v; "
            + "IF NOT FOUND THEN RAISE EXCEPTION 'no account %', p_id; END IF; RETURN v; END $$");
        s.execute("CREATE PROCEDURE rename(p_id integer, p_name varchar) LANGUAGE plpgsql AS $$ "
            + "BEGIN UPDATE acc SET name = p_name WHERE id = p_id; END $$");
        int n = s.executeUpdate("INSERT INTO acc VALUES (1, 10.50, 'ann', '2024-01-01 10:00'), (2, 0, 'bob', NULL)");
        check("executeUpdate count", n == 2, n);
      }
      try (PreparedStatement p = c.prepareStatement("SELECT deposit(?, ?)")) {
        BigDecimal last = null;
        for (int i = 0; i < 5; i++) {
          p.setInt(1, 1);
          p.setBigDecimal(2, new BigDecimal("-1234.25"));
          try (ResultSet r = p.executeQuery()) {
            r.next();
            last = r.getBigDecimal(1);
          }
        }
        check("prepared call with BigDecimal parameters, repeated", new BigDecimal("-6160.75").equals(last), last);
        p.setInt(1, 2);
        p.setBigDecimal(2, new BigDecimal("123456789012.34"));
        try (ResultSet r = p.executeQuery()) {
          r.next();
          check("large NUMERIC round trip", new BigDecimal("123456789012.34").equals(r.getBigDecimal(1)), r.getBigDecimal(1));
        }
      }
      try (PreparedStatement p = c.prepareStatement("SELECT id, bal, name, ts FROM acc WHERE id = ?")) {
        p.setInt(1, 1);
        try (ResultSet r = p.executeQuery()) {
          check("row found", r.next(), "");
          check("typed columns", r.getInt(1) == 1 && r.getBigDecimal(2).equals(new BigDecimal("-6160.75"))
              && r.getString(3).equals("ann") && r.getTimestamp(4).equals(Timestamp.valueOf("2024-01-01 10:00:00")),
              r.getInt(1) + " " + r.getBigDecimal(2) + " " + r.getString(3) + " " + r.getTimestamp(4));
          ResultSetMetaData md = r.getMetaData();
          check("metadata", md.getColumnType(2) == Types.NUMERIC && md.getColumnName(3).equals("name"),
                md.getColumnTypeName(2));
        }
      }
      try (CallableStatement call = c.prepareCall("CALL rename(?, ?)")) {
        call.setInt(1, 2);
        call.setString(2, "bobby");
        call.execute();
      }
      try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT name FROM acc WHERE id = 2")) {
        r.next();
        check("CALL with a varchar parameter", r.getString(1).equals("bobby"), r.getString(1));
      }
      try (PreparedStatement p = c.prepareStatement("SELECT deposit(?, ?)")) {
        p.setInt(1, 99);
        p.setBigDecimal(2, BigDecimal.ONE);
        p.executeQuery();
        check("error raised", false, "");
      } catch (SQLException e) {
        check("PL/pgSQL error with SQLSTATE P0001", "P0001".equals(e.getSQLState()) && e.getMessage().contains("no account 99"),
              e.getSQLState() + " " + e.getMessage());
      }
      // Autocommit off makes the driver send BEGIN first: rollback() undoes the block,
      // commit() keeps it.
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        int n = s.executeUpdate("UPDATE acc SET name = 'txn' WHERE id = 1");
        check("autocommit off: UPDATE in a block", n == 1, "" + n);
        try (ResultSet r = s.executeQuery("SELECT name FROM acc WHERE id = 1")) {
          r.next();
          check("autocommit off: the block reads its write", "txn".equals(r.getString(1)), r.getString(1));
        }
      }
      c.rollback();
      c.setAutoCommit(true);
      try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT name FROM acc WHERE id = 1")) {
        r.next();
        check("autocommit off: rollback() wrote nothing", !r.getString(1).equals("txn"), r.getString(1));
      }
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.executeUpdate("UPDATE acc SET name = 'kept' WHERE id = 1");
      }
      c.commit();
      c.setAutoCommit(true);
      try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT name FROM acc WHERE id = 1")) {
        r.next();
        check("autocommit off: commit() kept the write", "kept".equals(r.getString(1)), r.getString(1));
      }
    }
    System.out.println(failures + " failure(s)");
    System.exit(failures == 0 ? 0 : 1);
  }
}
