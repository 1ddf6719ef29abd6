/**
 * The PostgreSQL session behind one TDS connection: UTC (so timestamptz text is the instant at
 * +00, what the stand-in sends as datetimeoffset at offset 0), and SQL Server's date functions
 * as temporary functions (pg_temp, gone with the session), with SQL Server's semantics for the
 * forms our dialect uses: DATEPART(weekday) counts from Sunday = 1 (SET DATEFIRST 7,
 * us_english); DATEADD keeps the type of its date argument; DATEDIFF counts the boundaries
 * crossed (https://learn.microsoft.com/en-us/sql/t-sql/functions/datediff-transact-sql).
 */
export const SESSION_SETUP = `
SET TimeZone = 'UTC';
CREATE FUNCTION pg_temp.datepart(part text, d timestamp) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT CAST(CASE part
    WHEN 'weekday' THEN EXTRACT(DOW FROM d) + 1
    WHEN 'dayofyear' THEN EXTRACT(DOY FROM d)
    WHEN 'week' THEN floor((CAST(d AS date) - make_date(CAST(EXTRACT(YEAR FROM d) AS int), 1, 1) + CAST(EXTRACT(DOW FROM make_date(CAST(EXTRACT(YEAR FROM d) AS int), 1, 1)) AS int)) / 7) + 1
    WHEN 'year' THEN EXTRACT(YEAR FROM d) WHEN 'quarter' THEN EXTRACT(QUARTER FROM d)
    WHEN 'month' THEN EXTRACT(MONTH FROM d) WHEN 'day' THEN EXTRACT(DAY FROM d)
    WHEN 'hour' THEN EXTRACT(HOUR FROM d) WHEN 'minute' THEN EXTRACT(MINUTE FROM d)
    ELSE floor(EXTRACT(SECOND FROM d)) END AS int) $$;
CREATE FUNCTION pg_temp.datepart(part text, d timestamptz) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT pg_temp.datepart(part, d AT TIME ZONE 'UTC') $$;
CREATE FUNCTION pg_temp.datepart(part text, d date) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT pg_temp.datepart(part, CAST(d AS timestamp)) $$;
CREATE FUNCTION pg_temp.dateadd(part text, n int, d timestamp) RETURNS timestamp LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE part
    WHEN 'year' THEN d + make_interval(years => n) WHEN 'quarter' THEN d + make_interval(months => 3 * n)
    WHEN 'month' THEN d + make_interval(months => n) WHEN 'week' THEN d + make_interval(weeks => n)
    WHEN 'hour' THEN d + make_interval(hours => n) WHEN 'minute' THEN d + make_interval(mins => n)
    WHEN 'second' THEN d + make_interval(secs => n) ELSE d + make_interval(days => n) END $$;
CREATE FUNCTION pg_temp.dateadd(part text, n int, d date) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT CAST(pg_temp.dateadd(part, n, CAST(d AS timestamp)) AS date) $$;
CREATE FUNCTION pg_temp.dateadd(part text, n int, d timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT pg_temp.dateadd(part, n, d AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $$;
CREATE FUNCTION pg_temp.datediff(part text, a timestamp, b timestamp) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT CAST(CASE part
    WHEN 'year' THEN EXTRACT(YEAR FROM b) - EXTRACT(YEAR FROM a)
    WHEN 'quarter' THEN (EXTRACT(YEAR FROM b) * 4 + EXTRACT(QUARTER FROM b)) - (EXTRACT(YEAR FROM a) * 4 + EXTRACT(QUARTER FROM a))
    WHEN 'month' THEN (EXTRACT(YEAR FROM b) * 12 + EXTRACT(MONTH FROM b)) - (EXTRACT(YEAR FROM a) * 12 + EXTRACT(MONTH FROM a))
    WHEN 'week' THEN floor((CAST(b AS date) - DATE '1900-01-07') / 7.0) - floor((CAST(a AS date) - DATE '1900-01-07') / 7.0)
    WHEN 'hour' THEN (EXTRACT(EPOCH FROM date_trunc('hour', b)) - EXTRACT(EPOCH FROM date_trunc('hour', a))) / 3600
    WHEN 'minute' THEN (EXTRACT(EPOCH FROM date_trunc('minute', b)) - EXTRACT(EPOCH FROM date_trunc('minute', a))) / 60
    WHEN 'second' THEN EXTRACT(EPOCH FROM date_trunc('second', b)) - EXTRACT(EPOCH FROM date_trunc('second', a))
    ELSE CAST(b AS date) - CAST(a AS date) END AS int) $$;
CREATE FUNCTION pg_temp.datediff(part text, a timestamptz, b timestamptz) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT pg_temp.datediff(part, a AT TIME ZONE 'UTC', b AT TIME ZONE 'UTC') $$;
`
