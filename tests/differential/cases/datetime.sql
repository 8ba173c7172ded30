-- Date and time types: timestamptz (the session time zone is UTC), date, time, interval,
-- ad hoc and in procedures: input forms, output, casts, arithmetic (month ends, leap
-- years, negative intervals), comparisons across types, extract / date_part,
-- date_trunc, age, justify_*, make_*, to_char, to_timestamp / to_date, AT TIME ZONE,
-- DEFAULT now(), NULLs, and PostgreSQL's errors. now() itself differs between the two
-- systems, so it is only compared, never printed.
CREATE TABLE events (
  id integer PRIMARY KEY,
  at timestamptz NOT NULL,
  day date,
  slot time(0),
  stamp timestamp(3),
  created timestamptz DEFAULT now(),
  note text
);
INSERT INTO events (id, at, day, slot, stamp, note) VALUES
  (1, '2024-01-31 10:00:00+00', '2024-01-31', '10:00', '2024-01-31 10:00:00.12345', 'month end'),
  (2, '2024-02-29 23:30:00-02', '2024-02-29', '23:59:59.4', '2024-02-29 23:30:00', 'leap day'),
  (3, '2023-12-31 23:59:59.999999+00', NULL, NULL, NULL, 'year end'),
  (4, 'infinity', 'infinity', '00:00', 'infinity', 'forever'),
  (5, '1999-06-15 12:00+05:30', '1999-06-15', '12:00:00', '1999-06-15 12:00', NULL);
SELECT id, at, day, slot, stamp, created IS NOT NULL AS has_created, created <= now() AS created_before_now, note
FROM events ORDER BY id;

CREATE FUNCTION shift_event(p_id integer, p_days integer, p_hours integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_at timestamptz;
  v_len interval := p_days * interval '1 day' + p_hours * interval '1 hour';
BEGIN
  UPDATE events SET at = at + v_len, day = day + p_days, slot = slot + p_hours * interval '1 hour',
                    note = to_char(at + v_len, 'YYYY-MM-DD HH24:MI Dy')
  WHERE id = p_id RETURNING at INTO v_at;
  IF NOT FOUND THEN
    RETURN 'missing';
  END IF;
  RETURN v_at::text || ' ' || v_len::text || ' ' || extract(dow from v_at)::text;
END $$;

CREATE FUNCTION month_later(p_id integer, p_months integer) RETURNS date LANGUAGE plpgsql AS $$
DECLARE
  v_day date;
BEGIN
  SELECT (day + p_months * interval '1 month')::date INTO v_day FROM events WHERE id = p_id;
  UPDATE events SET stamp = date_trunc('month', stamp) + (p_months || ' months')::interval, day = v_day
  WHERE id = p_id;
  RETURN v_day;
END $$;

CREATE FUNCTION log_event(p_id integer, p_note text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (id, at, day, note) VALUES (p_id, now(), current_date, p_note);
  RETURN (SELECT created = at AND day = at::date FROM events WHERE id = p_id);
END $$;

CREATE FUNCTION span(p_from timestamptz, p_to timestamptz) RETURNS interval LANGUAGE plpgsql AS $$
BEGIN
  RETURN justify_interval(p_to - p_from);
END $$;

SELECT shift_event(1, 1, 2);
SELECT shift_event(2, -30, 25);
SELECT shift_event(3, 0, 1);
SELECT shift_event(4, 5, 5);
SELECT shift_event(99, 1, 1);
SELECT month_later(1, 1);
SELECT month_later(2, 12);
SELECT month_later(3, 1);
SELECT month_later(5, -3);
SELECT log_event(10, 'now');
SELECT log_event(11, 'again');
SELECT span('2024-01-01', '2024-03-15 12:00');
SELECT span('2024-03-15', '2024-01-01 06:00');
SELECT span(NULL, '2024-01-01');
--- calls: datetime 60
SELECT id, at, day, slot, stamp, note FROM events WHERE id < 10 ORDER BY id;
SELECT count(*), bool_and(created <= now()), bool_and(at <= now()) FROM events WHERE id >= 10;

-- Input and output.
SELECT '2024-03-05'::date, 'March 5, 2024'::date, '5 Mar 2024'::date, '03/05/2024'::date, '20240305'::date,
       '2024-03-05T07:08:09'::timestamp, '2024-03-05 07:08:09.1234567'::timestamp, '2024-03-05 07:08 PM'::timestamp,
       '2024-03-05 07:08:09 +02:30'::timestamptz, '2024-03-05 07:08:09Z'::timestamptz, '2024-03-05 07:08:09 UTC'::timestamptz,
       '0044-03-15 BC'::date, 'epoch'::timestamptz, '-infinity'::timestamptz, '24:00'::time, 'allballs'::time;
SELECT interval '1 year 2 months 3 days 04:05:06.7', interval '-1 day +02:00', interval '1.5 years', interval '2 weeks',
       interval '90 minutes', interval '1 day ago', interval 'P1Y2M3DT4H5M6.5S', interval '100', interval '-00:00:01.5',
       interval '@ 3 days 4 hours', interval '36 hours', interval '0', interval '1 millennium 2 centuries 3 decades';
SELECT '2024-03-05 10:00:00.123456'::timestamp(2), '10:00:00.5'::time(0), '2024-03-05 10:00:00.5'::timestamptz(0),
       interval '1.23456 seconds'::interval(2);

-- Arithmetic.
SELECT date '2024-01-31' + interval '1 month', date '2023-01-31' + interval '1 month', date '2024-02-29' + interval '1 year',
       timestamp '2024-03-31 10:00' - interval '1 month', date '2024-03-01' - date '2024-02-01', date '2024-03-01' - 1,
       7 + date '2024-12-28', date '2024-03-01' + time '12:30', time '22:00' + interval '3 hours', time '01:00' - interval '2 hours',
       time '18:30' - time '09:45', timestamp '2024-03-01 00:00' - timestamp '2024-02-27 12:00:00.5',
       timestamptz '2024-03-01 00:00+00' - timestamptz '2024-03-02 01:00+00', interval '1 day' * 2.5, 3 * interval '1 mon 1 hour',
       interval '1 mon' / 4, interval '1 day 1 hour' - interval '2 days', -interval '1 year 2 days 03:00', interval '1 hour' + interval '1 day';
SELECT timestamp '2024-01-01' + interval '1 day' * 0.1, interval '1 mon' * 0.5, interval '10 days' / 3, interval '3 days' * -1;
SELECT date '2024-03-01' - timestamp '2024-02-28 12:00', timestamp '2024-03-01' - date '2024-02-28',
       '2024-03-01'::date - '2024-01-01', timestamp '2024-03-01' - '2024-02-01', interval '1 day' + '1 hour';

-- Comparisons across types, ordering, grouping, DISTINCT.
SELECT date '2024-01-01' = timestamp '2024-01-01 00:00', date '2024-01-01' < timestamptz '2024-01-01 00:00:01+00',
       timestamp '2024-01-01 10:00' = timestamptz '2024-01-01 10:00+00', interval '1 day' = interval '24 hours',
       interval '1 mon' = interval '30 days', interval '1 year' > interval '360 days', time '10:00' < time '10:00:00.000001',
       date 'infinity' > date '9999-12-31', timestamptz '-infinity' < timestamptz '0001-01-01 BC';
SELECT day, count(*) FROM (VALUES (date '2024-01-01'), ('2024-01-01'), ('2024-01-02'), (NULL)) v(day) GROUP BY day ORDER BY day;
SELECT i, count(*) FROM (VALUES (interval '1 day'), (interval '24 hours'), (interval '1 mon'), (interval '30 days'), (NULL)) v(i)
GROUP BY i ORDER BY i;
SELECT DISTINCT t FROM (VALUES (timestamptz '2024-01-01 12:00+02'), ('2024-01-01 10:00+00'), ('2024-01-01 10:00:00.000001Z')) v(t) ORDER BY t;
SELECT min(at), max(at), min(day), max(slot) FROM events WHERE id < 10;
SELECT greatest(date '2024-01-01', timestamp '2023-12-31 23:00'), least(interval '1 day', interval '23 hours'),
       coalesce(NULL::date, '2024-05-05'), CASE WHEN true THEN date '2024-01-01' ELSE timestamp '2024-01-02' END;
SELECT x FROM (SELECT date '2024-01-02' UNION ALL SELECT timestamp '2024-01-01 10:00') s(x) ORDER BY x;

-- Functions.
SELECT extract(year FROM timestamp '2024-03-05 10:11:12.5'), extract(month FROM date '2024-03-05'), extract(day FROM timestamptz '2024-03-05 23:00-03'),
       extract(hour FROM time '10:11:12'), extract(minute FROM interval '1 day 02:03:04'), extract(second FROM timestamp '2024-03-05 10:11:12.5'),
       extract(milliseconds FROM time '10:11:12.5'), extract(microseconds FROM interval '1.5 seconds'), extract(epoch FROM timestamptz '2024-03-05 00:00+00'),
       extract(epoch FROM date '2024-03-05'), extract(epoch FROM interval '1 year 1 mon 1 day 1 second'), extract(epoch FROM time '01:00');
SELECT extract(dow FROM date '2024-03-10'), extract(isodow FROM date '2024-03-10'), extract(doy FROM date '2024-12-31'), extract(week FROM date '2024-12-30'),
       extract(isoyear FROM date '2024-12-30'), extract(quarter FROM date '2024-08-01'), extract(decade FROM date '2024-01-01'),
       extract(century FROM date '2000-12-31'), extract(century FROM date '2001-01-01'), extract(millennium FROM date '2001-01-01'),
       extract(year FROM date '0044-03-15 BC'), extract(julian FROM date '2024-01-01'), extract(timezone FROM timestamptz '2024-01-01 10:00+05'),
       extract(year FROM interval '27 months'), extract(month FROM interval '27 months'), extract(quarter FROM interval '27 months');
SELECT date_part('year', timestamp '2024-03-05'), date_part('epoch', timestamp '2024-03-05 00:00:00.5'), date_part('second', time '10:11:12.25'),
       date_part('day', interval '40 days'), date_part('month', date 'infinity');
SELECT date_trunc('year', timestamp '2024-03-05 10:11:12'), date_trunc('quarter', timestamp '2024-08-05'), date_trunc('month', date '2024-03-05'),
       date_trunc('week', timestamp '2024-03-07 10:00'), date_trunc('day', timestamptz '2024-03-05 23:59+00'), date_trunc('hour', timestamp '2024-03-05 10:59:59'),
       date_trunc('minute', timestamp '2024-03-05 10:59:59.9'), date_trunc('second', timestamp '2024-03-05 10:59:59.9'),
       date_trunc('milliseconds', timestamp '2024-03-05 10:59:59.123456'), date_trunc('decade', date '2024-03-05'),
       date_trunc('century', timestamp '2000-01-01'), date_trunc('millennium', timestamp '2024-01-01'),
       date_trunc('hour', interval '3 days 04:05:06'), date_trunc('year', interval '2 years 3 months'), date_trunc('day', timestamp 'infinity');
SELECT age(timestamp '2024-03-01', timestamp '2023-01-31 10:00'), age(timestamp '2023-01-31', timestamp '2024-03-01 10:00'),
       age(date '2024-02-29', date '2020-02-29'), age(timestamptz '2024-01-01 00:00+00', timestamptz '2023-12-31 23:59:59.5+00'),
       justify_days(interval '65 days'), justify_days(interval '-35 days'), justify_hours(interval '50 hours'), justify_hours(interval '-27 hours'),
       justify_interval(interval '1 mon -1 hour'), justify_interval(interval '-1 mon 35 days 1 hour');
SELECT make_date(2024, 2, 29), make_date(-44, 3, 15), make_time(23, 59, 59.5), make_timestamp(2024, 1, 2, 3, 4, 5.678),
       to_timestamp(0), to_timestamp(1700000000.25), to_timestamp('2024-03-05 17:08:09', 'YYYY-MM-DD HH24:MI:SS'),
       to_timestamp('05/03/2024 5:08 PM', 'DD/MM/YYYY HH12:MI AM'), to_date('5 March 2024', 'DD Month YYYY'), to_date('2024 065', 'YYYY DDD'),
       to_date('20240305', 'YYYYMMDD'), isfinite(date '2024-01-01'), isfinite(timestamp '-infinity'), isfinite(interval '1 day');
SELECT to_char(timestamp '2024-03-05 17:08:09.123456', 'YYYY-MM-DD HH24:MI:SS.US'), to_char(timestamp '2024-03-05 17:08:09', 'HH12:MI:SS am'),
       to_char(timestamp '2024-03-05 00:08:09', 'HH:MI A.M.'), to_char(date '2024-03-05', 'Day DD Month YYYY'),
       to_char(date '2024-03-05', 'FMDay, FMDD FMMonth YYYY'), to_char(date '2024-03-05', 'DY Dy dy MON Mon mon'),
       to_char(date '2024-03-01', 'DDth DDTH FMDDth'), to_char(date '2024-03-02', 'FMDDth'), to_char(date '2024-03-03', 'FMDDth'),
       to_char(date '2024-03-11', 'FMDDth'), to_char(date '2024-03-22', 'FMDDth'), to_char(date '2024-12-30', 'IYYY-IW-ID IDDD'),
       to_char(date '2024-12-30', 'YYYY Q WW W D DDD J CC'), to_char(date '2024-12-30', 'Y,YYY YYY YY Y'), to_char(date '2024-11-30', 'RM rm'),
       to_char(timestamptz '2024-03-05 17:08:09+00', 'YYYY-MM-DD"T"HH24:MI:SSOF TZ'), to_char(timestamp '2024-03-05 17:08:09.5', 'SSSS MS FF1 FF3'),
       to_char(interval '1 day 25:03:04', 'DD HH24:MI:SS'), to_char(interval '15 months', 'YYYY MM'), to_char(timestamp '2024-03-05', '"Week" IW \of YYYY'),
       to_char(NULL::timestamp, 'YYYY'), to_char(date '0044-03-15 BC', 'YYYY AD');
SELECT timestamptz '2024-03-05 10:00+02' AT TIME ZONE 'UTC', timestamp '2024-03-05 10:00' AT TIME ZONE 'utc',
       timezone('UTC', timestamptz '2024-03-05 10:00+00');

-- generate_series over timestamps; sum / avg / min / max of intervals.
SELECT * FROM generate_series(timestamp '2024-01-31', '2024-06-01', interval '1 month') WITH ORDINALITY;
SELECT g::date, extract(isodow FROM g) FROM generate_series('2024-03-01'::date, '2024-03-04', '1 day') g;
SELECT count(*), min(g), max(g) FROM generate_series(timestamptz '2024-01-01 00:00+00', '2024-01-01 23:59+00', '15 minutes') g;
SELECT generate_series(timestamp '2024-01-03', '2024-01-01', interval '-12 hours');
SELECT sum(x), avg(x), min(x), max(x) FROM (VALUES (interval '1 day'), (interval '2 hours'), (interval '1 mon'), (NULL)) v(x);
SELECT sum(x), avg(x) FROM (VALUES (interval '1 day')) v(x) WHERE false;
SELECT day, sum(span) OVER (ORDER BY day), avg(span) OVER () FROM (VALUES (date '2024-01-01', interval '1 hour'), ('2024-01-02', '30 minutes'), ('2024-01-03', '1 day')) v(day, span);

-- now() and its relatives: each statement's, equal to each other.
SELECT now() = current_timestamp, now() = transaction_timestamp(), now() = statement_timestamp(), current_date = now()::date,
       localtimestamp = now()::timestamp, localtime = now()::time, now() > '2024-01-01', now() - now() = interval '0';
SELECT count(*) FROM events WHERE at < now() AND day < current_date + 1;

-- NULLs.
SELECT NULL::date + 1, NULL::timestamp + interval '1 day', date '2024-01-01' + NULL::interval, NULL::interval * 2,
       extract(year FROM NULL::date), date_trunc('day', NULL::timestamp), age(NULL::timestamp, timestamp '2024-01-01'),
       make_date(NULL, 1, 1), to_char(NULL::interval, 'HH24'), NULL::time - time '10:00';

-- Errors.
SELECT '2024-13-01'::date;
SELECT '2024-02-30'::date;
SELECT '2024-01-01 25:00'::timestamp;
SELECT 'tomorrowish'::timestamptz;
SELECT 'one day'::interval;
SELECT '25:00'::time;
SELECT date_trunc('fortnight', timestamp '2024-01-01');
SELECT extract(hour FROM date '2024-01-01');
SELECT extract(timezone FROM timestamp '2024-01-01');
SELECT date_trunc('week', interval '10 days');
SELECT timestamp '2024-01-01' + 1;
SELECT timestamp '2024-01-01' - '1 day';
SELECT date '2024-01-01' * 2;
SELECT interval '1 day' / 0;
SELECT make_date(2023, 2, 29);
SELECT timestamp 'infinity' - timestamp '2024-01-01';
SELECT to_date('2024-xx-01', 'YYYY-MM-DD');
SELECT shift_event(1, 2147483647, 0);
SELECT id FROM events WHERE at > 'not a time';
SELECT * FROM generate_series(timestamp '2024-01-01', '2024-01-02', interval '0');
SELECT * FROM generate_series(timestamp '2024-01-01', '2024-01-02');
SELECT sum(x) FROM (VALUES (time '10:00')) v(x);
