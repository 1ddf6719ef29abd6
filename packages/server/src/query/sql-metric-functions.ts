/**
 * The functions a SQL metric may call, per dialect: read-only and free of side effects
 * (aggregates, window functions, math, strings, dates and times, conditionals, conversions,
 * JSON and arrays). Anything else is refused, naming the function: an allow-list, because the
 * functions an engine offers to read files, run SQL given as text, reach other servers, change
 * the session or write (PostgreSQL's `lo_*`, `pg_ls_dir`, `dblink`; MySQL's `LOAD_FILE`;
 * ClickHouse's `file`, `url`, `dictGet`; Snowflake's `SYSTEM$…`; Spark's `reflect`) are too many
 * and too version-dependent to list. Names compare case-insensitively; a qualified name
 * (`pg_catalog.lower`) is allowed only where it is listed as such. CAST, EXTRACT, SUBSTRING …
 * FROM, TRIM, POSITION, CEIL/FLOOR and CASE are syntax, not calls, and always allowed.
 * Adding a function: it must only compute from its arguments (no I/O, no session or catalogue
 * state, no SQL text); add it to its dialect below, with a test if the name is unusual.
 */
import type { DialectName } from './types.js'

const words = (...lists: string[]): ReadonlySet<string> =>
  new Set(lists.flatMap((l) => l.trim().toLowerCase().split(/\s+/)))

const AGGREGATES =
  'count sum avg min max stddev stddev_pop stddev_samp variance var_pop var_samp corr covar_pop covar_samp'

/** Standard SQL and what nearly every engine shares. */
const COMMON = `
  ${AGGREGATES}
  row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value
  coalesce nullif greatest least abs ceil ceiling floor round sign sqrt power exp ln log log10 mod pi
  sin cos tan asin acos atan atan2 degrees radians lower upper length char_length character_length
  concat substring substr trim ltrim rtrim replace reverse lpad rpad left right repeat
  current_date current_timestamp current_time localtime localtimestamp grouping`

const POSTGRES = `
  array_agg string_agg bool_and bool_or every bit_and bit_or json_agg jsonb_agg json_object_agg
  jsonb_object_agg percentile_cont percentile_disc mode regr_slope regr_intercept regr_r2 regr_count
  regr_avgx regr_avgy regr_sxx regr_syy regr_sxy
  now date_trunc date_part date_bin age make_date make_time make_timestamp make_timestamptz make_interval
  to_char to_date to_timestamp to_number clock_timestamp statement_timestamp transaction_timestamp timezone
  isfinite justify_days justify_hours justify_interval
  btrim concat_ws format split_part starts_with translate md5 sha224 sha256 sha384 sha512 encode decode
  quote_ident quote_literal quote_nullable regexp_replace regexp_match regexp_matches regexp_split_to_array
  regexp_like regexp_count regexp_substr regexp_instr ascii chr octet_length bit_length overlay to_hex
  strpos initcap normalize unistr
  cbrt div gcd lcm factorial width_bucket random scale trim_scale min_scale trunc
  num_nulls num_nonnulls
  array_length array_position array_positions array_remove array_replace array_to_string string_to_array
  cardinality array_cat array_append array_prepend unnest array_dims array_lower array_upper
  json_build_object jsonb_build_object json_build_array jsonb_build_array to_json to_jsonb row_to_json
  array_to_json json_extract_path json_extract_path_text jsonb_extract_path jsonb_extract_path_text
  json_array_length jsonb_array_length json_typeof jsonb_typeof json_object_keys jsonb_object_keys
  json_array_elements jsonb_array_elements json_array_elements_text jsonb_array_elements_text
  json_each jsonb_each json_each_text jsonb_each_text jsonb_strip_nulls jsonb_path_query jsonb_path_exists
  getdate sysdate datediff dateadd nvl nvl2 listagg median convert_timezone months_between add_months
  last_day`

const MYSQL = `
  group_concat bit_and bit_or bit_xor std json_arrayagg json_objectagg
  now curdate curtime sysdate utc_date utc_time utc_timestamp date_format date_add date_sub adddate subdate
  datediff timestampdiff timestampadd year month day dayofmonth dayofweek dayofyear week weekday weekofyear
  yearweek quarter hour minute second microsecond last_day makedate maketime str_to_date from_unixtime
  unix_timestamp convert_tz date time timestamp monthname dayname to_days from_days period_add period_diff
  sec_to_time time_to_sec time_format timediff addtime subtime
  concat_ws locate instr lcase ucase mid space field find_in_set format hex unhex substring_index ord
  ascii bin oct conv soundex strcmp regexp_replace regexp_like regexp_instr regexp_substr elt md5 sha1
  sha2 crc32 to_base64 from_base64 char
  json_extract json_unquote json_object json_array json_length json_contains json_keys json_value
  json_search json_valid json_type
  truncate rand pow log2 cot if ifnull isnull`

const CLICKHOUSE_AGGREGATES = `
  count sum avg min max any anylast argmin argmax uniq uniqexact uniqcombined uniqcombined64 uniqhll12
  grouparray groupuniqarray quantile quantiles quantileexact quantiletiming quantiletdigest median
  medianexact topk sumwithoverflow stddevpop stddevsamp varpop varsamp corr covarpop covarsamp
  groupbitand groupbitor groupbitxor`

const CLICKHOUSE = `
  ${CLICKHOUSE_AGGREGATES}
  todate todatetime todatetime64 tostartofmonth tostartofweek tostartofday tostartofhour tostartofminute
  tostartofquarter tostartofyear tostartofinterval tomonday toyear tomonth todayofmonth todayofweek
  todayofyear tohour tominute tosecond toquarter toyyyymm toyyyymmdd toisoweek toweek torelativedaynum
  tostring tofixedstring toint8 toint16 toint32 toint64 touint8 touint16 touint32 touint64 tofloat32
  tofloat64 todecimal32 todecimal64 todecimal128 todateornull todatetimeornull toint64ornull
  tofloat64ornull todecimal64ornull
  formatdatetime datediff date_diff dateadd datesub date_trunc datetrunc adddays addweeks addmonths
  addyears addhours addminutes addseconds subtractdays subtractweeks subtractmonths subtractyears
  subtracthours subtractminutes now today yesterday totimezone tounixtimestamp fromunixtimestamp
  parsedatetimebesteffort parsedatetimebesteffortornull
  if multiif ifnull isnull isnotnull nullif assumenotnull
  intdiv intdivorzero modulo divide multiply plus minus negate
  lowerutf8 upperutf8 lengthutf8 empty notempty concat substringutf8 trimboth trimleft trimright
  replaceall replaceone replaceregexpall replaceregexpone position positioncaseinsensitive like ilike
  notlike match extract extractall splitbychar splitbystring arraystringconcat startswith endswith
  format leftpad rightpad
  arrayjoin has hasany hasall indexof arraymap arrayfilter arrayelement arraysort arraydistinct
  arrayreverse arrayslice arrayconcat arraycount arraysum arrayuniq arraycompact range tuple
  tupleelement array map mapkeys mapvalues
  jsonextract jsonextractstring jsonextractint jsonextractfloat jsonextractbool jsonextractraw jsonhas
  jsonlength visitparamextractstring
  round floor ceil abs exp log log2 log10 sqrt pow power greatest least`

/** ClickHouse aggregate combinators: `sumIf`, `uniqMerge`, `avgOrNull` … of an allowed aggregate. */
const CLICKHOUSE_COMBINATORS = ['if', 'array', 'merge', 'state', 'ornull', 'ordefault', 'distinct', 'foreach', 'map']

const DUCKDB = `
  ${POSTGRES}
  date_diff date_sub date_add strftime strptime epoch epoch_ms make_timestamp dayname monthname
  year month day hour minute second quarter week weekday dayofweek dayofyear last_day
  arg_max arg_min argmax argmin max_by min_by approx_count_distinct approx_quantile quantile
  quantile_cont quantile_disc first last any_value histogram count_if list bool_and bool_or product
  string_split str_split regexp_extract regexp_full_match contains suffix prefix ends_with
  list_value list_extract list_contains list_has list_distinct list_sort list_aggregate list_transform
  list_filter len array_length ifnull iif if struct_pack json_extract json_extract_string
  json_array_length to_json try_cast printf`

const MSSQL = `
  count_big stdev stdevp var varp approx_count_distinct string_agg percentile_cont percentile_disc
  grouping_id isnull iif choose datepart datename dateadd datediff datediff_big datefromparts
  datetimefromparts datetime2fromparts eomonth getdate getutcdate sysdatetime sysutcdatetime
  sysdatetimeoffset switchoffset todatetimeoffset datetrunc date_bucket year month day format len
  datalength charindex patindex stuff replicate space str concat_ws translate quotename soundex
  difference unicode nchar char ascii square rand try_parse parse isnumeric isdate json_value
  json_query isjson`

const SNOWFLAKE = `
  count_if approx_count_distinct hll median mode listagg array_agg object_agg any_value percentile_cont
  percentile_disc ratio_to_report kurtosis skew bool_and bool_or booland_agg boolor_agg
  iff ifnull nvl nvl2 zeroifnull nullifzero decode div0 div0null equal_null
  date_trunc trunc dateadd datediff timeadd timediff timestampadd timestampdiff date_part to_date
  to_timestamp to_timestamp_ntz to_timestamp_tz to_timestamp_ltz to_char to_varchar to_number to_decimal
  to_numeric to_double to_boolean try_to_date try_to_timestamp try_to_number try_to_decimal try_to_double
  try_to_boolean convert_timezone last_day dayname monthname year month day dayofweek dayofweekiso
  dayofmonth dayofyear week weekofyear weekiso yearofweek quarter hour minute second sysdate getdate
  date_from_parts time_from_parts timestamp_from_parts add_months months_between next_day previous_day
  split_part split strtok contains startswith endswith regexp_replace regexp_substr regexp_like
  regexp_count regexp_instr rlike charindex position len editdistance concat_ws initcap translate
  sha2 md5 base64_encode base64_decode_string hex_encode
  parse_json try_parse_json get get_path array_size array_contains object_construct array_construct
  array_to_string as_varchar as_number as_double as_integer typeof
  square cbrt ln log div0 truncate random`

const BIGQUERY = `
  countif approx_count_distinct approx_quantiles approx_top_count any_value array_agg string_agg
  logical_and logical_or bit_and bit_or bit_xor
  date_trunc datetime_trunc timestamp_trunc time_trunc date_add date_sub date_diff datetime_add
  datetime_sub datetime_diff timestamp_add timestamp_sub timestamp_diff format_date format_timestamp
  format_datetime format_time parse_date parse_timestamp parse_datetime parse_time date datetime
  timestamp time current_datetime unix_seconds unix_millis unix_micros unix_date timestamp_seconds
  timestamp_millis timestamp_micros date_from_unix_date last_day generate_date_array
  if ifnull safe_divide ieee_divide div split regexp_contains regexp_extract regexp_extract_all
  regexp_replace starts_with ends_with strpos instr format byte_length to_json_string json_extract
  json_extract_scalar json_value json_query json_extract_array json_value_array array_length
  array_to_string generate_array array_reverse array_concat offset ordinal safe_offset safe_ordinal
  to_hex from_hex md5 sha256 farm_fingerprint initcap
  net.host net.reg_domain net.public_suffix trunc`

const DATABRICKS = `
  count_if approx_count_distinct percentile percentile_approx approx_percentile median mode collect_list
  collect_set first last first_value last_value any_value bool_and bool_or every array_agg max_by min_by
  date_trunc trunc date_add date_sub datediff date_diff dateadd timestampadd timestampdiff add_months
  months_between date_format to_date to_timestamp unix_timestamp from_unixtime from_utc_timestamp
  to_utc_timestamp year month day dayofmonth dayofweek dayofyear weekofyear quarter hour minute second
  last_day next_day make_date make_timestamp now current_timezone
  if iff ifnull nvl nvl2 nanvl decode
  concat_ws split split_part instr locate lcase ucase initcap format_number format_string printf
  regexp_extract regexp_extract_all regexp_replace regexp_like rlike startswith endswith contains
  char_length octet_length ascii chr sha1 sha2 md5 hash xxhash64 base64 unbase64 hex unhex
  bround pow cbrt log2 log1p expm1 try_divide try_add try_subtract try_multiply
  size cardinality array_contains element_at explode posexplode array map struct named_struct
  array_join array_distinct array_sort sort_array array_max array_min array_position array_remove
  sequence transform filter aggregate exists flatten slice
  get_json_object from_json to_json json_tuple
  int bigint smallint tinyint double float string boolean date timestamp decimal`

const TRINO = `
  approx_distinct approx_percentile arbitrary any_value array_agg bool_and bool_or count_if every
  max_by min_by map_agg listagg histogram
  date_trunc date_add date_diff date_format date_parse format_datetime parse_datetime
  from_iso8601_timestamp from_iso8601_date to_iso8601 from_unixtime to_unixtime year quarter month week
  week_of_year day day_of_month day_of_week dow day_of_year doy hour minute second millisecond
  last_day_of_month now at_timezone with_timezone current_timezone
  if try concat_ws split split_part strpos position regexp_extract regexp_extract_all regexp_like
  regexp_replace regexp_split regexp_count starts_with format chr codepoint levenshtein_distance
  json_extract json_extract_scalar json_format json_parse json_array_length json_size
  cardinality element_at contains array_join array_distinct array_max array_min array_sort
  array_position array_remove sequence filter transform reduce zip zip_with slice flatten map map_keys
  map_values truncate pow cbrt log2 random rand typeof to_hex from_hex to_utf8 from_utf8 md5 sha256
  url_extract_host url_extract_path url_extract_parameter`

const FIREBOLT = `
  ${POSTGRES}
  date_add date_diff datediff apx_count_distinct hll_count_distinct max_by min_by any_value ifnull
  if regexp_extract regexp_like array_count array_contains contains array_distinct array_sort
  array_join flatten extract_all json_extract json_pointer_extract json_value`

const ALLOWED: Record<DialectName, ReadonlySet<string>> = {
  postgres: words(COMMON, POSTGRES),
  firebolt: words(COMMON, FIREBOLT),
  mysql: words(COMMON, MYSQL),
  clickhouse: words(COMMON, CLICKHOUSE),
  duckdb: words(COMMON, DUCKDB),
  mssql: words(COMMON, MSSQL),
  snowflake: words(COMMON, SNOWFLAKE),
  bigquery: words(COMMON, BIGQUERY),
  databricks: words(COMMON, DATABRICKS),
  trino: words(COMMON, TRINO),
  elasticsearch: new Set(),
  mongodb: new Set(),
}
const CH_AGGREGATES = words(AGGREGATES, CLICKHOUSE_AGGREGATES)

/** Whether a SQL metric in `dialect` may call the function named `parts` (as written, qualified or not). */
export function functionAllowed(dialect: DialectName, parts: readonly string[]): boolean {
  const allowed = ALLOWED[dialect]
  let name = parts.join('.').toLowerCase()
  if (dialect === 'bigquery' && name.startsWith('safe.')) name = name.slice(5) // SAFE.f(): f, NULL on error
  if (allowed.has(name)) return true
  if (dialect !== 'clickhouse' || parts.length !== 1) return false
  for (let base = name, found = true; found; ) {
    found = false
    for (const c of CLICKHOUSE_COMBINATORS) {
      if (base.length > c.length && base.endsWith(c)) {
        base = base.slice(0, -c.length)
        if (CH_AGGREGATES.has(base)) return true
        found = true
        break
      }
    }
  }
  return false
}
