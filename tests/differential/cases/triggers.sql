-- Triggers (CREATE TRIGGER ... EXECUTE FUNCTION f(), f RETURNS trigger): BEFORE ROW
-- triggers that change NEW or skip the row (RETURN NULL / OLD), AFTER ROW triggers that
-- write other tables (an audit log, a running total), statement triggers, WHEN and
-- UPDATE OF, TG_ variables and arguments, triggers that fire triggers, in procedures
-- run pipelined and in ad-hoc INSERT / UPDATE / DELETE (VALUES, INSERT ... SELECT,
-- UPDATE ... FROM, DELETE ... USING); CREATE OR REPLACE of a trigger function, DROP
-- TRIGGER, TRUNCATE (which fires none), and PostgreSQL's errors.
CREATE TABLE accounts (id integer PRIMARY KEY, owner text NOT NULL, balance integer NOT NULL, version integer NOT NULL DEFAULT 0,
                       touched_by text, frozen boolean NOT NULL DEFAULT false);
CREATE TABLE ledger (entry serial PRIMARY KEY, op text, trigger_name text, account integer, old_balance integer,
                     new_balance integer, args text);
CREATE TABLE orders (id integer PRIMARY KEY, total integer NOT NULL DEFAULT 0, lines integer NOT NULL DEFAULT 0);
CREATE TABLE order_lines (order_id integer, line integer, amount integer NOT NULL, PRIMARY KEY (order_id, line));
CREATE TABLE statements (n serial PRIMARY KEY, what text);
CREATE TABLE ledger_stats (op text PRIMARY KEY, entries integer NOT NULL);

-- BEFORE: stamps the row, bumps its version, refuses overdrafts by skipping the row.
CREATE FUNCTION stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.balance < 0 THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    NEW.version := OLD.version + 1;
  END IF;
  NEW.touched_by = TG_NAME || ':' || lower(TG_WHEN) || ':' || TG_LEVEL;
  RETURN NEW;
END $$;

-- BEFORE DELETE: frozen accounts stay; on order lines, big amounts are refused. Only
-- accounts have a column `frozen`: PL/pgSQL checks it only where it runs.
CREATE FUNCTION keep_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'accounts' THEN
    IF OLD.frozen THEN
      RETURN NULL;
    END IF;
    RETURN OLD;
  END IF;
  RETURN NULL;
END $$;

-- AFTER: an audit log with the trigger's arguments.
CREATE FUNCTION audit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  who integer;
BEGIN
  IF TG_OP = 'DELETE' THEN
    who := OLD.id;
  ELSE
    who := NEW.id;
  END IF;
  INSERT INTO ledger (op, trigger_name, account, old_balance, new_balance, args)
  VALUES (TG_OP, TG_NAME, who, OLD.balance, NEW.balance,
          TG_NARGS || ':' || array_to_string(TG_ARGV, ',') || ':' || coalesce(TG_ARGV[0], '-') || coalesce(TG_ARGV[1], '-'));
  RETURN NULL;
END $$;

-- The ledger's own trigger: a trigger that fires from a trigger's write.
CREATE FUNCTION count_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ledger_stats SET entries = entries + 1 WHERE op = NEW.op;
  IF NOT FOUND THEN
    INSERT INTO ledger_stats VALUES (NEW.op, 1);
  END IF;
  RETURN NEW;
END $$;

-- AFTER on order lines: keeps the order's total.
CREATE FUNCTION keep_total() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE orders SET total = total + NEW.amount, lines = lines + 1 WHERE id = NEW.order_id;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE orders SET total = total - OLD.amount, lines = lines - 1 WHERE id = OLD.order_id;
  END IF;
  RETURN NULL;
END $$;

-- Statement triggers.
CREATE FUNCTION note_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO statements (what) VALUES (TG_WHEN || ' ' || TG_OP || ' ON ' || TG_TABLE_NAME || ' ' || TG_LEVEL);
  RETURN NULL;
END $$;

CREATE TRIGGER a_stamp BEFORE INSERT OR UPDATE ON accounts FOR EACH ROW EXECUTE FUNCTION stamp();
CREATE TRIGGER b_keep BEFORE DELETE ON accounts FOR EACH ROW EXECUTE PROCEDURE keep_frozen();
CREATE TRIGGER c_audit AFTER INSERT OR DELETE ON accounts FOR EACH ROW EXECUTE FUNCTION audit('row', 42);
CREATE TRIGGER d_audit_balance AFTER UPDATE OF balance ON accounts FOR EACH ROW
  WHEN (OLD.balance IS DISTINCT FROM NEW.balance) EXECUTE FUNCTION audit('balance');
CREATE TRIGGER e_statement AFTER UPDATE ON accounts FOR EACH STATEMENT EXECUTE FUNCTION note_statement();
CREATE TRIGGER count_it AFTER INSERT ON ledger FOR EACH ROW EXECUTE FUNCTION count_entries();
CREATE TRIGGER total_it AFTER INSERT OR UPDATE OR DELETE ON order_lines FOR EACH ROW EXECUTE FUNCTION keep_total();
CREATE TRIGGER big_lines BEFORE INSERT ON order_lines FOR EACH ROW WHEN (NEW.amount > 1000) EXECUTE FUNCTION keep_frozen();

INSERT INTO accounts (id, owner, balance) VALUES (1, 'ann', 100), (2, 'bob', 50), (3, 'cy', -10), (4, 'dee', 0);
INSERT INTO accounts (id, owner, balance, frozen) VALUES (5, 'eve', 500, true);
INSERT INTO orders (id) VALUES (1), (2), (3);

CREATE FUNCTION transfer(p_from integer, p_to integer, p_amount integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  moved integer;
BEGIN
  UPDATE accounts SET balance = balance - p_amount WHERE id = p_from;
  GET DIAGNOSTICS moved = ROW_COUNT;
  IF moved = 0 THEN
    RETURN 0;
  END IF;
  UPDATE accounts SET balance = balance + p_amount WHERE id = p_to;
  RETURN p_amount;
END $$;

CREATE FUNCTION add_line(p_order integer, p_amount integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  next_line integer;
BEGIN
  SELECT coalesce(max(line), 0) + 1 INTO next_line FROM order_lines WHERE order_id = p_order;
  INSERT INTO order_lines VALUES (p_order, next_line, p_amount);
  IF NOT FOUND THEN
    RETURN -1;
  END IF;
  RETURN next_line;
END $$;

CREATE FUNCTION drop_line(p_order integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_lines WHERE order_id = p_order AND line = (SELECT min(line) FROM order_lines WHERE order_id = p_order);
  RETURN (SELECT total FROM orders WHERE id = p_order);
END $$;

CREATE FUNCTION rename_owner(p_id integer, p_owner text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  UPDATE accounts SET owner = p_owner WHERE id = p_id;
  RETURN (SELECT touched_by || '/' || version FROM accounts WHERE id = p_id);
END $$;

CREATE FUNCTION open_or_deposit(p_id integer, p_amount integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  INSERT INTO accounts (id, owner, balance) VALUES (p_id, 'o' || p_id, p_amount)
  ON CONFLICT (id) DO UPDATE SET balance = accounts.balance + excluded.balance
  RETURNING balance, version INTO r;
  IF NOT FOUND THEN
    RETURN 'refused';
  END IF;
  RETURN r.balance || '/' || r.version;
END $$;

--- calls: triggers 150
SELECT * FROM accounts ORDER BY id;
SELECT * FROM orders ORDER BY id;
SELECT order_id, count(*), sum(amount) FROM order_lines GROUP BY order_id ORDER BY order_id;
SELECT op, trigger_name, count(*), sum(coalesce(new_balance, 0) - coalesce(old_balance, 0)) FROM ledger
GROUP BY op, trigger_name ORDER BY op, trigger_name;
SELECT * FROM ledger_stats ORDER BY op;
SELECT what, count(*) FROM statements GROUP BY what ORDER BY what;

-- Whole rows: NEW / OLD compared and turned into JSON (NULL where the row is: OLD in an
-- INSERT, NEW in a DELETE), from a trigger that a trigger's write fires.
CREATE TABLE history (k serial PRIMARY KEY, op text, before jsonb, after jsonb, compact text);
CREATE FUNCTION remember() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW IS NOT DISTINCT FROM OLD THEN
    RETURN NULL;
  END IF;
  INSERT INTO history (op, before, after, compact) VALUES (TG_OP, to_jsonb(OLD), to_jsonb(NEW), row_to_json(NEW)::text);
  RETURN NULL;
END $$;
CREATE FUNCTION only_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF row(NEW.*) IS DISTINCT FROM row(OLD.*) THEN
    NEW.lines := NEW.lines;
    RETURN NEW;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER remember_orders AFTER INSERT OR UPDATE OR DELETE ON orders FOR EACH ROW EXECUTE FUNCTION remember();
CREATE TRIGGER skip_same BEFORE UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION only_changes();
INSERT INTO orders VALUES (4, 0, 0);
UPDATE orders SET total = total;
UPDATE orders SET total = total + 1 WHERE id = 4;
SELECT add_line(4, 7);
DELETE FROM orders WHERE id = 4;
SELECT op, before, after, compact FROM history ORDER BY k;

-- PostgreSQL's manual's audit example: SELECT NEW.* / VALUES (OLD.*) into a table
-- without a primary key; a BEFORE trigger that raises.
CREATE TABLE emp (empname text PRIMARY KEY, salary integer, last_user text);
CREATE TABLE emp_audit (operation char(1) NOT NULL, n integer NOT NULL, empname text NOT NULL, salary integer, last_user text);
CREATE FUNCTION process_emp_audit() RETURNS TRIGGER AS $emp_audit$
    BEGIN
        IF (TG_OP = 'DELETE') THEN
            INSERT INTO emp_audit SELECT 'D', 1, OLD.*;
        ELSIF (TG_OP = 'UPDATE') THEN
            INSERT INTO emp_audit SELECT 'U', 2, NEW.*;
        ELSIF (TG_OP = 'INSERT') THEN
            INSERT INTO emp_audit VALUES ('I', 3, NEW.*);
        END IF;
        RETURN NULL;
    END;
$emp_audit$ LANGUAGE plpgsql;
CREATE FUNCTION emp_stamp() RETURNS trigger AS $emp_stamp$
    BEGIN
        IF NEW.salary IS NULL THEN
            RAISE EXCEPTION '% cannot have null salary', NEW.empname;
        END IF;
        IF NEW.salary < 0 THEN
            RAISE EXCEPTION '% cannot have a negative salary', NEW.empname;
        END IF;
        NEW.last_user := 'someone';
        RETURN NEW;
    END;
$emp_stamp$ LANGUAGE plpgsql;
CREATE TRIGGER emp_audit AFTER INSERT OR UPDATE OR DELETE ON emp FOR EACH ROW EXECUTE FUNCTION process_emp_audit();
CREATE TRIGGER emp_stamp BEFORE INSERT OR UPDATE ON emp FOR EACH ROW EXECUTE FUNCTION emp_stamp();
INSERT INTO emp VALUES ('ann', 10, NULL), ('bob', 20, NULL);
INSERT INTO emp VALUES ('cy', -1, NULL);
INSERT INTO emp VALUES ('dee', NULL, NULL);
UPDATE emp SET salary = salary * 2 WHERE empname = 'bob';
DELETE FROM emp WHERE empname = 'ann';
SELECT * FROM emp ORDER BY empname;
SELECT * FROM emp_audit ORDER BY n, empname;

-- Ad-hoc writes of every shape.
UPDATE accounts SET balance = balance + 1;
UPDATE accounts SET owner = upper(owner) WHERE id <= 2;
UPDATE accounts SET balance = -5 WHERE id = 1;
DELETE FROM accounts WHERE id IN (4, 5);
INSERT INTO order_lines SELECT id, 100 + id, id * 10 FROM orders;
UPDATE order_lines SET amount = amount + 1 FROM orders WHERE orders.id = order_lines.order_id AND orders.id = 1;
DELETE FROM order_lines USING orders WHERE orders.id = order_lines.order_id AND orders.id = 2 AND order_lines.line > 100;
INSERT INTO order_lines VALUES (3, 500, 5000);
INSERT INTO accounts (id, owner, balance) VALUES (6, 'fay', 10) RETURNING id, version, touched_by;
UPDATE accounts SET balance = balance * 2 WHERE id = 6 RETURNING balance, version;
-- ON CONFLICT: BEFORE INSERT, then the INSERT or (on a conflict) the UPDATE triggers.
INSERT INTO accounts (id, owner, balance) VALUES (2, 'bob2', 77), (10, 'jo', 5), (11, 'neg', -3)
  ON CONFLICT (id) DO UPDATE SET balance = accounts.balance + excluded.balance, owner = excluded.owner
  RETURNING id, owner, balance, version, touched_by;
INSERT INTO accounts (id, owner, balance) VALUES (2, 'x', 1), (12, 'kim', 12) ON CONFLICT DO NOTHING;
INSERT INTO accounts (id, owner, balance) VALUES (2, 'x', 1) ON CONFLICT (id) DO UPDATE SET balance = 0 WHERE accounts.balance < 0;
SELECT id, owner, balance, version, touched_by FROM accounts WHERE id IN (2, 10, 11, 12) ORDER BY id;
SELECT * FROM accounts ORDER BY id;
SELECT * FROM orders ORDER BY id;
SELECT * FROM order_lines WHERE line > 100 ORDER BY order_id, line;
SELECT op, trigger_name, account, old_balance, new_balance, args FROM ledger WHERE account IN (4, 5, 6)
ORDER BY account, op, trigger_name, old_balance, new_balance;
SELECT * FROM ledger_stats ORDER BY op;
SELECT what, count(*) FROM statements GROUP BY what ORDER BY what;

-- A DO block and CREATE OR REPLACE of a trigger function (procedures bound to the old
-- version are bound again).
DO $$
BEGIN
  PERFORM transfer(1, 2, 7);
  INSERT INTO accounts (id, owner, balance) VALUES (7, 'gus', 70);
END $$;
CREATE OR REPLACE FUNCTION stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.touched_by := 'v2 ' || TG_OP;
  RETURN NEW;
END $$;
SELECT transfer(2, 1, 1);
SELECT rename_owner(7, 'Gus');
INSERT INTO accounts (id, owner, balance) VALUES (8, 'hal', -1);
SELECT id, balance, version, touched_by FROM accounts ORDER BY id;

-- DROP TRIGGER; TRUNCATE fires no row trigger.
DROP TRIGGER a_stamp ON accounts;
DROP TRIGGER IF EXISTS a_stamp ON accounts;
UPDATE accounts SET balance = balance + 1 WHERE id = 1;
SELECT id, balance, version, touched_by FROM accounts WHERE id = 1;
TRUNCATE order_lines;
SELECT * FROM orders ORDER BY id;

-- ALTER TABLE ... DISABLE / ENABLE TRIGGER.
ALTER TABLE accounts DISABLE TRIGGER c_audit;
INSERT INTO accounts (id, owner, balance) VALUES (9, 'ida', 9);
ALTER TABLE accounts ENABLE TRIGGER c_audit;
DELETE FROM accounts WHERE id = 9;
SELECT op, account FROM ledger WHERE account = 9 ORDER BY op;
ALTER TABLE accounts DISABLE TRIGGER ALL;
UPDATE accounts SET balance = balance + 1000 WHERE id = 2;
ALTER TABLE accounts ENABLE TRIGGER USER;
SELECT count(*) FROM ledger WHERE account = 2 AND new_balance > 1000;
ALTER TABLE accounts DISABLE TRIGGER nope;
ALTER TABLE order_lines RENAME COLUMN amount TO amt;
ALTER TABLE order_lines RENAME COLUMN amt TO amount;
ALTER TABLE accounts DROP COLUMN balance;

-- Errors.
CREATE FUNCTION not_a_trigger() RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$;
CREATE TRIGGER bad AFTER INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION not_a_trigger();
CREATE TRIGGER bad AFTER INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION no_such_function();
CREATE TRIGGER bad AFTER INSERT ON no_such_table FOR EACH ROW EXECUTE FUNCTION audit();
CREATE TRIGGER c_audit AFTER INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION audit();
CREATE TRIGGER bad AFTER INSERT ON accounts FOR EACH ROW WHEN (OLD.id > 0) EXECUTE FUNCTION audit();
CREATE TRIGGER bad AFTER DELETE ON accounts FOR EACH ROW WHEN (NEW.id > 0) EXECUTE FUNCTION audit();
CREATE TRIGGER bad AFTER UPDATE OF nope ON accounts FOR EACH ROW EXECUTE FUNCTION audit();
CREATE TRIGGER bad BEFORE UPDATE ON accounts FOR EACH ROW WHEN (NEW.nope > 1) EXECUTE FUNCTION audit();
CREATE FUNCTION with_args(integer) RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
CREATE FUNCTION sql_trigger() RETURNS trigger LANGUAGE sql AS $$ SELECT 1 $$;
CREATE FUNCTION audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
DROP FUNCTION audit();
DROP TRIGGER nope ON accounts;
CREATE FUNCTION no_return() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.balance := 1; END $$;
CREATE TRIGGER z_no_return BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION no_return();
INSERT INTO orders VALUES (9);
DROP TRIGGER z_no_return ON orders;
CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'no writes to % (%)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'P0099', HINT = 'read only';
END $$;
CREATE TRIGGER guard BEFORE DELETE ON orders FOR EACH ROW EXECUTE FUNCTION refuse();
DELETE FROM orders WHERE id = 1;
SELECT count(*) FROM orders;
DROP TRIGGER guard ON orders;
DROP FUNCTION refuse();
SELECT count(*) FROM ledger;
