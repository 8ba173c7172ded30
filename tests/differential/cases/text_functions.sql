-- Text functions (and pi()), ad hoc and compiled: lpad, rpad, reverse, initcap (ASCII,
-- as the C locale), split_part (negative fields count from the end), starts_with,
-- translate; NULL in, NULL out; the errors PostgreSQL raises.
CREATE TABLE doc (id integer PRIMARY KEY, body text, shown text);
INSERT INTO doc (id, body) VALUES (1, 'x,y'), (2, 'pq'), (3, NULL), (4, 'alpha,beta,gamma'), (5, 'é,ü€');

CREATE FUNCTION show_doc(p_id integer, p_width integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_body text;
  v_shown text;
BEGIN
  SELECT body INTO v_body FROM doc WHERE id = p_id;
  v_shown := lpad(split_part(v_body, ',', -1), p_width, '*') || '|' || initcap(reverse(v_body)) || '|' ||
             translate(v_body, ',', ';') || '|' || rpad(split_part(v_body, ',', 1), p_width, '.') || '|' ||
             starts_with(v_body, 'al')::text;
  UPDATE doc SET shown = v_shown WHERE id = p_id;
  RETURN v_shown;
END $$;

SELECT show_doc(1, 4);
SELECT show_doc(2, 1);
SELECT show_doc(3, 4);
SELECT show_doc(4, 6);
SELECT show_doc(5, 3);
SELECT show_doc(4, 0);
SELECT id, shown FROM doc ORDER BY id;

SELECT lpad('7', 3, '0'), lpad('hello', 3), lpad('hi', 5), lpad('hi', 5, 'ab'), lpad('hi', -1, 'x'), lpad('hi', 4, ''), lpad('ébc', 5, 'ü');
SELECT rpad('a', 3, '-'), rpad('hello', 2), rpad('hi', 6, 'xyz'), rpad('', 2), rpad('hi', 0);
SELECT reverse('abc'), reverse(''), reverse('aé€b');
SELECT initcap('hello world'), initcap('hELLO wORLD'), initcap('a1b c-d_e'), initcap(''), initcap('3rd time');
SELECT split_part('a,b,c', ',', 2), split_part('a,b,c', ',', 4), split_part('a,b,c', ',', -1), split_part('a,b,c', ',', -3),
       split_part('a,b,c', ',', -4), split_part('abc', '', 1), split_part('abc', '', 2), split_part('', ',', 1),
       split_part('a::b::c', '::', 3), split_part('a,,b', ',', 2);
SELECT split_part('a', ',', 0);
SELECT starts_with('hello', 'he'), starts_with('hello', ''), starts_with('he', 'hello'), starts_with(NULL, 'a');
SELECT translate('12345', '143', 'ax'), translate('hello', 'l', ''), translate('aéb', 'é', 'e'), translate('abc', '', 'x');
SELECT pi(), pi() * 2, round(pi()::numeric, 4);
SELECT lpad(NULL, 3), split_part('a', NULL, 1), translate('a', 'a', NULL);

-- octet_length counts bytes, and a char(n) value's padding (its bpchar overload); the
-- cast to text and bit_length (text only) strip the blanks; multibyte characters.
CREATE TABLE padded (id integer PRIMARY KEY, c char(6), v varchar(10), t text);
INSERT INTO padded VALUES (1, 'ab', 'ab  ', 'héllo'), (2, NULL, NULL, NULL), (3, 'éé', 'x', '');

CREATE FUNCTION padded_bytes(p_id integer, p_c char(8)) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_local char(8) := p_c;
  v_bytes integer;
BEGIN
  SELECT octet_length(c) * 1000 + octet_length(v) * 100 + octet_length(t) INTO v_bytes FROM padded WHERE id = p_id;
  RETURN concat_ws(',', v_bytes, octet_length(p_c), octet_length(v_local), bit_length(v_local),
                   octet_length(v_local::text), octet_length(v_local || '!'));
END $$;

SELECT padded_bytes(1, 'xy');
SELECT padded_bytes(2, 'é');
SELECT padded_bytes(3, NULL);
SELECT id, octet_length(c), octet_length(v), octet_length(t), bit_length(c), bit_length(t), length(c),
       octet_length(c::text), octet_length(c || 'x') FROM padded ORDER BY id;
SELECT octet_length('abc '), bit_length('é'), octet_length('ab'::char(5)), octet_length(NULL::text), octet_length(''::char(3));
SELECT concat_ws(', ', 'a', NULL, 2, 1.50, true, 'x'::char(3)), concat_ws(NULL, 'a', 'b'), concat_ws('-'),
       concat_ws('ab'::char(3), 'x', 'y'), concat_ws('', NULL, NULL), concat_ws('|', '2024-01-02 03:04:05'::timestamp);
SELECT concat_ws(1, 'a');
SELECT concat_ws();
