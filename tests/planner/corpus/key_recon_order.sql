-- Reconnaissance reads the state before the call, so a read that finds keys may not
-- follow the call's own change of its table (the call is serial then), with two
-- exceptions: the change is in another branch of an IF outside loops, or it is an
-- UPDATE of columns the read does not name. And an EXCEPTION block whose handlers only
-- raise again leaves its variables as known as without it.
CREATE TABLE stock (item integer PRIMARY KEY, qty integer NOT NULL, dist1 text NOT NULL, dist2 text NOT NULL);
CREATE TABLE orders (id integer PRIMARY KEY, customer integer NOT NULL, carrier integer);
CREATE TABLE customer (id integer PRIMARY KEY, deliveries integer NOT NULL);

-- One update per branch: dependent keys, not serial.
CREATE FUNCTION take(p_d integer, p_items integer[]) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  total integer;
BEGIN
  IF p_d = 1 THEN
    WITH u AS (UPDATE stock SET qty = qty - 1 FROM unnest(p_items) AS s (i) WHERE stock.item = s.i RETURNING stock.dist1)
    SELECT count(*) INTO total FROM u;
  ELSE
    WITH u AS (UPDATE stock SET qty = qty - 2 FROM unnest(p_items) AS s (i) WHERE stock.item = s.i RETURNING stock.dist2)
    SELECT count(*) INTO total FROM u;
  END IF;
  RETURN total;
END $$;
SELECT statement, access, key_class, note FROM caracal_write_sets WHERE procedure = 'take' ORDER BY statement;

-- The same in a loop: one iteration's branch may follow another's: serial.
CREATE FUNCTION take_loop(p_items integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  FOR d IN 1..2 LOOP
    IF d = 1 THEN
      UPDATE stock SET qty = qty - 1 WHERE item = p_items[1];
    ELSE
      WITH u AS (UPDATE stock SET qty = qty - 2 FROM unnest(p_items) AS s (i) WHERE stock.item = s.i RETURNING stock.dist2)
      SELECT count(*) INTO n FROM u;
    END IF;
  END LOOP;
END $$;
SELECT statement, access, key_class, note FROM caracal_write_sets WHERE procedure = 'take_loop' ORDER BY statement;

-- An UPDATE of carrier, then a read of customer: dependent, not serial.
CREATE FUNCTION deliver(p_o integer, p_carrier integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  c integer;
BEGIN
  UPDATE orders SET carrier = p_carrier WHERE id = p_o;
  SELECT customer INTO c FROM orders WHERE id = p_o;
  UPDATE customer SET deliveries = deliveries + 1 WHERE id = c;
END $$;
SELECT statement, access, key_class, note FROM caracal_write_sets WHERE procedure = 'deliver' ORDER BY statement;

-- An UPDATE of the column read: serial.
CREATE FUNCTION reassign(p_o integer, p_customer integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  c integer;
BEGIN
  UPDATE orders SET customer = p_customer WHERE id = p_o;
  SELECT customer INTO c FROM orders WHERE id = p_o;
  UPDATE customer SET deliveries = deliveries + 1 WHERE id = c;
END $$;
SELECT statement, access, key_class, note FROM caracal_write_sets WHERE procedure = 'reassign' ORDER BY statement;

-- A handler that only raises: a key assigned in the body stays static.
CREATE FUNCTION pay(p_o integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  c integer;
BEGIN
  c := 1 + p_o % 3;
  UPDATE customer SET deliveries = deliveries + 1 WHERE id = c;
EXCEPTION WHEN no_data_found THEN
  RAISE NOTICE 'none';
  ROLLBACK;
END $$;
SELECT statement, access, key_class, note FROM caracal_write_sets WHERE procedure = 'pay' ORDER BY statement;

-- A handler that goes on: what the body assigned depends on where it stopped: serial.
CREATE FUNCTION pay_on(p_o integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  c integer;
BEGIN
  BEGIN
    c := p_o;
    PERFORM 1 / (p_o - 5);
    c := p_o + 1;
  EXCEPTION WHEN division_by_zero THEN
    RAISE NOTICE 'stopped';
  END;
  UPDATE customer SET deliveries = deliveries + 1 WHERE id = c;
END $$;
SELECT statement, access, key_class, note FROM caracal_write_sets WHERE procedure = 'pay_on' ORDER BY statement;

-- A key a DECLARE default gives and a FETCH in an EXCEPTION block (whose handler goes on)
-- sets again: unknown (every value the body gives it must be computable): serial.
CREATE FUNCTION pay_by_name(p_c integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  c integer := p_c;
  by_id CURSOR FOR SELECT customer FROM orders ORDER BY id;
BEGIN
  IF p_c IS NULL THEN
    OPEN by_id;
    FETCH by_id INTO c;
    CLOSE by_id;
  END IF;
  UPDATE customer SET deliveries = deliveries + 1 WHERE id = c;
EXCEPTION WHEN no_data_found THEN
  RAISE NOTICE 'none';
END $$;
SELECT statement, access, key_class, note FROM caracal_write_sets WHERE procedure = 'pay_by_name' ORDER BY statement;
