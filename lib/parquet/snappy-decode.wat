;; Snappy raw-block decoder of the Parquet reader (lib/parquet/snappy-decode.ts), in WebAssembly text.
;; Regenerate the module after a change: `node lib/parquet/snappy-decode-build.mjs` (needs wat2wasm, Debian package wabt).
;; decode(src, srcEnd, dst, dstLen) -> 0 or a negative error. The caller leaves 16 bytes of slack
;; after the input and after the output: literals and copies move 8 bytes at a time and may write
;; up to 7 bytes past their end.
(module
  (memory (export "memory") 1)
  (func (export "decode") (param $ip i32) (param $ipEnd i32) (param $dst i32) (param $dstLen i32) (result i32)
    (local $op i32) (local $opEnd i32) (local $tag i32) (local $len i32) (local $off i32)
    (local $n i32) (local $s i32) (local $end i32)
    (local.set $op (local.get $dst))
    (local.set $opEnd (i32.add (local.get $dst) (local.get $dstLen)))
    (block $done
      (loop $tags
        (br_if $done (i32.ge_u (local.get $ip) (local.get $ipEnd)))
        (local.set $tag (i32.load8_u (local.get $ip)))
        (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
        (if (i32.eqz (i32.and (local.get $tag) (i32.const 3)))
          (then
            ;; literal
            (local.set $len (i32.shr_u (local.get $tag) (i32.const 2)))
            (if (i32.ge_u (local.get $len) (i32.const 60))
              (then
                (local.set $n (i32.sub (local.get $len) (i32.const 59)))
                (if (i32.gt_u (i32.add (local.get $ip) (local.get $n)) (local.get $ipEnd)) (then (return (i32.const -3))))
                (local.set $len (i32.and (i32.load (local.get $ip))
                  (i32.sub (i32.shl (i32.const 1) (i32.shl (local.get $n) (i32.const 3))) (i32.const 1))))
                (if (i32.eq (local.get $n) (i32.const 4)) (then (local.set $len (i32.load (local.get $ip)))))
                (local.set $ip (i32.add (local.get $ip) (local.get $n)))))
            (local.set $len (i32.add (local.get $len) (i32.const 1)))
            (if (i32.eqz (local.get $len)) (then (return (i32.const -4))))
            (if (i32.gt_u (local.get $len) (i32.sub (local.get $ipEnd) (local.get $ip))) (then (return (i32.const -3))))
            (if (i32.gt_u (local.get $len) (i32.sub (local.get $opEnd) (local.get $op))) (then (return (i32.const -4))))
            (local.set $end (i32.add (local.get $op) (local.get $len)))
            (local.set $s (local.get $ip))
            ;; most literals are short: two 8-byte moves, no loop
            (if (i32.le_u (local.get $len) (i32.const 16))
              (then
                (i64.store (local.get $op) (i64.load (local.get $s)))
                (i64.store offset=8 (local.get $op) (i64.load offset=8 (local.get $s)))
                (local.set $op (local.get $end))
                (local.set $ip (i32.add (local.get $ip) (local.get $len)))
                (br $tags)))
            (loop $lit
              (i64.store (local.get $op) (i64.load (local.get $s)))
              (local.set $op (i32.add (local.get $op) (i32.const 8)))
              (local.set $s (i32.add (local.get $s) (i32.const 8)))
              (br_if $lit (i32.lt_u (local.get $op) (local.get $end))))
            (local.set $op (local.get $end))
            (local.set $ip (i32.add (local.get $ip) (local.get $len)))
            (br $tags)))
        ;; copies
        (if (i32.eq (i32.and (local.get $tag) (i32.const 3)) (i32.const 1))
          (then
            (if (i32.ge_u (local.get $ip) (local.get $ipEnd)) (then (return (i32.const -3))))
            (local.set $len (i32.add (i32.and (i32.shr_u (local.get $tag) (i32.const 2)) (i32.const 7)) (i32.const 4)))
            (local.set $off (i32.or (i32.shl (i32.shr_u (local.get $tag) (i32.const 5)) (i32.const 8)) (i32.load8_u (local.get $ip))))
            (local.set $ip (i32.add (local.get $ip) (i32.const 1))))
          (else
            (local.set $len (i32.add (i32.shr_u (local.get $tag) (i32.const 2)) (i32.const 1)))
            (if (i32.eq (i32.and (local.get $tag) (i32.const 3)) (i32.const 2))
              (then
                (if (i32.gt_u (i32.add (local.get $ip) (i32.const 2)) (local.get $ipEnd)) (then (return (i32.const -3))))
                (local.set $off (i32.load16_u (local.get $ip)))
                (local.set $ip (i32.add (local.get $ip) (i32.const 2))))
              (else
                (if (i32.gt_u (i32.add (local.get $ip) (i32.const 4)) (local.get $ipEnd)) (then (return (i32.const -3))))
                (local.set $off (i32.load (local.get $ip)))
                (local.set $ip (i32.add (local.get $ip) (i32.const 4)))))))
        ;; the offset must point into what was written, the copy fit the output
        (if (i32.or (i32.eqz (local.get $off)) (i32.gt_u (local.get $off) (i32.sub (local.get $op) (local.get $dst)))) (then (return (i32.const -5))))
        (if (i32.gt_u (local.get $len) (i32.sub (local.get $opEnd) (local.get $op))) (then (return (i32.const -4))))
        (local.set $end (i32.add (local.get $op) (local.get $len)))
        (local.set $s (i32.sub (local.get $op) (local.get $off)))
        (if (i32.ge_u (local.get $off) (i32.const 8))
          (then
            ;; short copies: two 8-byte moves in order (the second may read what the first wrote)
            (if (i32.le_u (local.get $len) (i32.const 16))
              (then
                (i64.store (local.get $op) (i64.load (local.get $s)))
                (i64.store offset=8 (local.get $op) (i64.load offset=8 (local.get $s)))
                (local.set $op (local.get $end))
                (br $tags)))
            (loop $cp8
              (i64.store (local.get $op) (i64.load (local.get $s)))
              (local.set $op (i32.add (local.get $op) (i32.const 8)))
              (local.set $s (i32.add (local.get $s) (i32.const 8)))
              (br_if $cp8 (i32.lt_u (local.get $op) (local.get $end)))))
          (else
            (loop $cp1
              (i32.store8 (local.get $op) (i32.load8_u (local.get $s)))
              (local.set $op (i32.add (local.get $op) (i32.const 1)))
              (local.set $s (i32.add (local.get $s) (i32.const 1)))
              (br_if $cp1 (i32.lt_u (local.get $op) (local.get $end))))))
        (local.set $op (local.get $end))
        (br $tags)))
    (if (i32.ne (local.get $op) (local.get $opEnd)) (then (return (i32.const -6))))
    (i32.const 0))
)
