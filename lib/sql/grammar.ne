# EpochDB SQL grammar (QuestDB dialect), compiled by `npm run grammar` into grammar.ts.
#
# Design rules that keep the grammar unambiguous (test/unit/sql/ambiguity.test.ts asserts exactly
# one parse per statement of a corpus):
# - Keywords are tokens typed by their upper-case spelling (%SELECT). Soft keywords are accepted
#   as names through the custom terminals in build/terminals.ts (%t_softName, %t_aliasKw,
#   %t_shortKw); the reserved ones never are (see keywords.ts).
# - Expressions are stratified by precedence, one rule per level, left-recursive (left-assoc).
# - Optional clauses start with distinct keywords, so `clause:?` sequences cannot overlap.
# - Where a parenthesised query could also be read as a parenthesised expression (`(a)`,
#   `((select 1))`), the expression side wins: subquery rules reject "bare" queries
#   (build/query.ts, isBare).
# - Lists are left-recursive rules that build a Seq (build/seq.ts) in O(1) per item, never an
#   array copy: nearley completes a list rule after every item. No EBNF `:*` / `:+` (nearley
#   compiles them to `d[0].concat(...)`, O(n²) per list; build.mjs refuses them).
# The statement splitter (parse.ts) cuts the input at `;`, so no rule sees a `;`.

@preprocessor typescript

@{%
import { grammarLexer as lexer } from './token-stream.js'
import { t_any, t_aliasKw, t_columnKw, t_permWord, t_selectAliasKw, t_shortKw, t_softName, t_within } from './build/terminals.js'
import * as E from './build/expr.js'
import * as Q from './build/query.js'
import * as D from './build/ddl.js'
import * as S from './build/statements.js'
import * as A from './build/acl.js'
import { dotted, nameOf } from './build/tokens.js'
import * as L from './build/seq.js'
import * as P from './build/pivot.js'
import * as V from './build/declare.js'
import * as AR from './build/array.js'
import * as C from './build/copy.js'
import * as M from './build/matview.js'
%}

@lexer lexer

statement ->
    query                      {% id %}
  | insert                     {% id %}
  | %WITH cteList insert       {% ([, ctes, ins]) => ({ ...ins, ctes }) %}
  | update                     {% id %}
  | ddl                        {% id %}
  | utility                    {% id %}
  | acl                        {% id %}
  | copyTo                     {% id %}
  # a table function as a whole statement: `generate_series(1, 3);`, `table_columns('t');`
  | call                       {% ([c]) => Q.shorthand(Q.tableRef({ kind: 'function', pos: c.pos, call: c }, { alias: null, timestamp: null }), {}) %}

@include "grammar/names.ne"
@include "grammar/expressions.ne"
@include "grammar/arrays.ne"
@include "grammar/window.ne"
@include "grammar/queries.ne"
@include "grammar/pivot.ne"
@include "grammar/declare.ne"
@include "grammar/ddl.ne"
@include "grammar/matview.ne"
@include "grammar/dml.ne"
@include "grammar/utility.ne"
@include "grammar/acl.ne"
@include "grammar/parquet.ne"
