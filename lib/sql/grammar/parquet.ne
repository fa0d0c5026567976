# Parquet statements (QuestDB 9): COPY ... TO a Parquet file, and ALTER TABLE's CONVERT PARTITION.
# COPY's options are read from the trailing tokens (build/copy.ts); CONVERT and PARQUET/NATIVE are
# plain names checked in the builders, so no new keyword takes a name away from users.
@lexer lexer

copyTo ->
    %COPY tableName %TO %string restTokens
      {% ([c, t, , d, rest]) => L.deferred(() => C.copyTo(c, { table: t }, d, L.toArray(rest))) %}
  | %COPY "(" query ")" %TO %string restTokens
      {% ([c, , q, , , d, rest]) => L.deferred(() => C.copyTo(c, { query: q }, d, L.toArray(rest))) %}

convertPartition ->
    name %PARTITION %TO name %LIST partitionNames
      {% ([w, , , f, , list], _l, reject) => w.name.toLowerCase() !== 'convert' ? reject : L.deferred(() => C.convertPartition(w, f, { list: L.toArray(list) })) %}
  | name %PARTITION %TO name where
      {% ([w, , , f, where], _l, reject) => w.name.toLowerCase() !== 'convert' ? reject : L.deferred(() => C.convertPartition(w, f, { where })) %}
