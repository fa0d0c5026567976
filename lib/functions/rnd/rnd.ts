/**
 * QuestDB's random generator (io.questdb.std.Rnd), bit-exact. Placeholder interface; the
 * implementation follows ../shared/reference/questdb-sql.md §4.2.
 */
export class Rnd {
  /** Re-seeds the generator. */
  reset(_s0: bigint, _s1: bigint): void {}
}
