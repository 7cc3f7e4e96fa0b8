//! The entropy coder of values-file blocks: a binary range coder with adaptive bit
//! probabilities, and the models of a block's positions, presence bits and values.
//!
//! Every block is coded on its own, its models starting from even odds, so that a query
//! decodes one block. A block is a sequence of *entries*; each entry codes, in this order,
//! what the block's kind needs: a presence bit (blocks of ranks), the difference from the
//! previous position (blocks of positions, every entry but the first), the outcome, and
//! the remoteness (when stored, and the outcome is not a draw).

use crate::Outcome;

/// Bits of precision of a probability.
const PROB_BITS: u32 = 11;
/// One, in units of a probability.
const PROB_ONE: u16 = 1 << PROB_BITS;
/// How fast a probability follows the bits it sees: it moves by 1/2^`ADAPT` of the way.
/// Blocks are short (a few thousand entries), so the models learn fast.
const ADAPT: u32 = 4;
/// The range is renormalised (a byte shifted out) when it falls below this.
const TOP: u32 = 1 << 24;

/// The probability that the next bit is 0, adapted after each bit.
#[derive(Clone, Copy)]
struct Bit(u16);

impl Bit {
    const EVEN: Bit = Bit(PROB_ONE / 2);

    fn update(&mut self, bit: bool) {
        if bit {
            self.0 -= self.0 >> ADAPT;
        } else {
            self.0 += (PROB_ONE - self.0) >> ADAPT;
        }
    }
}

/// The range encoder.
pub(crate) struct Encoder {
    low: u64,
    range: u32,
    cache: u8,
    pending: u64,
    out: Vec<u8>,
}

impl Encoder {
    pub(crate) fn new() -> Encoder {
        Encoder { low: 0, range: u32::MAX, cache: 0, pending: 1, out: Vec::new() }
    }

    fn shift_low(&mut self) {
        if self.low < 0xFF00_0000 || self.low > u64::from(u32::MAX) {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            while self.pending > 0 {
                self.out.push(byte.wrapping_add(carry));
                byte = 0xFF;
                self.pending -= 1;
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.pending += 1;
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    fn bit(&mut self, p: &mut Bit, bit: bool) {
        let bound = (self.range >> PROB_BITS) * u32::from(p.0);
        if bit {
            self.low += u64::from(bound);
            self.range -= bound;
        } else {
            self.range = bound;
        }
        p.update(bit);
        while self.range < TOP {
            self.range <<= 8;
            self.shift_low();
        }
    }

    /// A bit at even odds, without a model.
    fn direct(&mut self, bit: bool) {
        self.range >>= 1;
        if bit {
            self.low += u64::from(self.range);
        }
        while self.range < TOP {
            self.range <<= 8;
            self.shift_low();
        }
    }

    /// The coded bytes.
    pub(crate) fn finish(mut self) -> Vec<u8> {
        for _ in 0..5 {
            self.shift_low();
        }
        self.out
    }
}

/// The range decoder. Bytes past the end of the block read as 0 (a block that passed its
/// checksum was written whole, so this happens only to a damaged block, which then
/// decodes to wrong values but never panics).
pub(crate) struct Decoder<'a> {
    bytes: &'a [u8],
    at: usize,
    code: u32,
    range: u32,
}

impl<'a> Decoder<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Decoder<'a> {
        let mut d = Decoder { bytes, at: 0, code: 0, range: u32::MAX };
        for _ in 0..5 {
            d.code = (d.code << 8) | u32::from(d.next_byte());
        }
        d
    }

    fn next_byte(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn normalize(&mut self) {
        while self.range < TOP {
            self.range <<= 8;
            self.code = (self.code << 8) | u32::from(self.next_byte());
        }
    }

    fn bit(&mut self, p: &mut Bit) -> bool {
        let bound = (self.range >> PROB_BITS) * u32::from(p.0);
        let bit = self.code >= bound;
        if bit {
            self.code -= bound;
            self.range -= bound;
        } else {
            self.range = bound;
        }
        p.update(bit);
        self.normalize();
        bit
    }

    fn direct(&mut self) -> bool {
        self.range >>= 1;
        let bit = self.code >= self.range;
        if bit {
            self.code -= self.range;
        }
        self.normalize();
        bit
    }
}

/// A symbol of `B` bits, coded most significant bit first down a binary tree of adaptive
/// probabilities (2^`B` − 1 of them).
#[derive(Clone)]
struct Tree<const B: u32>(Vec<Bit>);

impl<const B: u32> Tree<B> {
    fn new() -> Tree<B> {
        Tree(vec![Bit::EVEN; 1 << B])
    }

    fn encode(&mut self, e: &mut Encoder, symbol: u32) {
        let mut node = 1usize;
        for i in (0..B).rev() {
            let bit = (symbol >> i) & 1 == 1;
            e.bit(&mut self.0[node], bit);
            node = node * 2 + usize::from(bit);
        }
    }

    fn decode(&mut self, d: &mut Decoder<'_>) -> u32 {
        let mut node = 1usize;
        for _ in 0..B {
            node = node * 2 + usize::from(d.bit(&mut self.0[node]));
        }
        (node - (1 << B)) as u32
    }
}

/// Mantissa bits below the leading one that get a model (the others are coded at even
/// odds).
const MODELLED: u32 = 3;

/// A positive integer of up to 128 bits: its bit length by a tree, the [`MODELLED`] bits
/// below its leading one by models that depend on the length, the rest at even odds (an
/// adaptive Elias gamma code).
#[derive(Clone)]
struct Number {
    length: Tree<8>,
    mantissa: Vec<Bit>,
}

impl Number {
    fn new() -> Number {
        Number { length: Tree::new(), mantissa: vec![Bit::EVEN; 129 << MODELLED] }
    }

    fn encode(&mut self, e: &mut Encoder, x: u128) {
        debug_assert!(x > 0);
        let n = 128 - x.leading_zeros();
        self.length.encode(e, n);
        let mut node = 1usize;
        for i in (0..n - 1).rev() {
            let bit = (x >> i) & 1 == 1;
            if n - 1 - i <= MODELLED {
                e.bit(&mut self.mantissa[((n as usize) << MODELLED) + node], bit);
                node = node * 2 + usize::from(bit);
            } else {
                e.direct(bit);
            }
        }
    }

    /// `None` for a length outside 1..=128 (a damaged block).
    fn decode(&mut self, d: &mut Decoder<'_>) -> Option<u128> {
        let n = self.length.decode(d);
        if !(1..=128).contains(&n) {
            return None;
        }
        let mut x = 1u128;
        let mut node = 1usize;
        for i in (0..n - 1).rev() {
            let bit = if n - 1 - i <= MODELLED {
                let b = d.bit(&mut self.mantissa[((n as usize) << MODELLED) + node]);
                node = node * 2 + usize::from(b);
                b
            } else {
                d.direct()
            };
            x = x << 1 | u128::from(bit);
        }
        Some(x)
    }
}

/// Remoteness up to this is coded by a tree; larger ones escape to a [`Number`].
const SHORT: u32 = 255;

/// The models of one block.
#[derive(Clone)]
pub(crate) struct Models {
    /// Whether the entry's rank is a reachable position, by the previous entry's.
    present: [Bit; 2],
    /// The difference from the previous position.
    gap: Number,
    /// The outcome code, by the previous entry's outcome code.
    outcome: [Tree<2>; 4],
    /// `min(remoteness, SHORT)`, by outcome code (Win, Loss, Tie).
    remoteness: [Tree<8>; 3],
    /// `remoteness − SHORT` of the long ones.
    long: Number,
    last_present: usize,
    last_outcome: usize,
}

impl Models {
    pub(crate) fn new() -> Models {
        Models {
            present: [Bit::EVEN; 2],
            gap: Number::new(),
            outcome: std::array::from_fn(|_| Tree::new()),
            remoteness: std::array::from_fn(|_| Tree::new()),
            long: Number::new(),
            last_present: 1,
            last_outcome: 0,
        }
    }

    /// Codes whether the entry of a block of ranks is a reachable position.
    pub(crate) fn put_present(&mut self, e: &mut Encoder, present: bool) {
        e.bit(&mut self.present[self.last_present], present);
        self.last_present = usize::from(present);
    }

    pub(crate) fn get_present(&mut self, d: &mut Decoder<'_>) -> bool {
        let present = d.bit(&mut self.present[self.last_present]);
        self.last_present = usize::from(present);
        present
    }

    /// Codes the (positive) difference between a position and the previous one.
    pub(crate) fn put_gap(&mut self, e: &mut Encoder, gap: u128) {
        self.gap.encode(e, gap);
    }

    pub(crate) fn get_gap(&mut self, d: &mut Decoder<'_>) -> Option<u128> {
        self.gap.decode(d)
    }

    /// Codes an outcome, and its remoteness when `remoteness` (the files's flag) is set
    /// and the outcome is not a draw.
    pub(crate) fn put_value(
        &mut self,
        e: &mut Encoder,
        outcome: Outcome,
        r: Option<u32>,
        remoteness: bool,
    ) {
        let code = outcome.code();
        self.outcome[self.last_outcome].encode(e, u32::from(code));
        self.last_outcome = usize::from(code);
        if remoteness && outcome != Outcome::Draw {
            let r = r.unwrap_or(0);
            self.remoteness[usize::from(code) - 1].encode(e, r.min(SHORT));
            if r >= SHORT {
                self.long.encode(e, u128::from(r - SHORT) + 1);
            }
        }
    }

    /// `None` for a remoteness beyond `u32` (a damaged block).
    pub(crate) fn get_value(
        &mut self,
        d: &mut Decoder<'_>,
        remoteness: bool,
    ) -> Option<(Outcome, Option<u32>)> {
        let code = self.outcome[self.last_outcome].decode(d) as u8;
        self.last_outcome = usize::from(code);
        let outcome = Outcome::from_code(code)?;
        if !remoteness || outcome == Outcome::Draw {
            return Some((outcome, None));
        }
        let mut r = self.remoteness[usize::from(code) - 1].decode(d);
        if r == SHORT {
            let extra = self.long.decode(d)? - 1;
            r = u32::try_from(extra.checked_add(u128::from(SHORT))?).ok()?;
        }
        Some((outcome, Some(r)))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn outcome(code: u8) -> Outcome {
        Outcome::from_code(code % 4).expect("a code below 4")
    }

    proptest! {
        #[test]
        fn entries_round_trip(
            entries in prop::collection::vec(
                (any::<bool>(), 1u128..=u128::MAX, 0u8..4, prop_oneof![0u32..300, any::<u32>()]),
                0..300,
            ),
            remoteness in any::<bool>(),
        ) {
            let mut e = Encoder::new();
            let mut m = Models::new();
            for &(present, gap, code, r) in &entries {
                m.put_present(&mut e, present);
                m.put_gap(&mut e, gap);
                m.put_value(&mut e, outcome(code), Some(r), remoteness);
            }
            let bytes = e.finish();
            let mut d = Decoder::new(&bytes);
            let mut m = Models::new();
            for &(present, gap, code, r) in &entries {
                prop_assert_eq!(m.get_present(&mut d), present);
                prop_assert_eq!(m.get_gap(&mut d), Some(gap));
                let o = outcome(code);
                let want = (o, (remoteness && o != Outcome::Draw).then_some(r));
                prop_assert_eq!(m.get_value(&mut d, remoteness), Some(want));
            }
        }

        #[test]
        fn damaged_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            let mut d = Decoder::new(&bytes);
            let mut m = Models::new();
            for _ in 0..100 {
                let _ = m.get_present(&mut d);
                let _ = m.get_gap(&mut d);
                let _ = m.get_value(&mut d, true);
            }
        }
    }

    #[test]
    fn skewed_values_take_less_than_a_bit_each() {
        let mut e = Encoder::new();
        let mut m = Models::new();
        for i in 0..4096u32 {
            let o = if i % 10 == 0 { Outcome::Loss } else { Outcome::Win };
            m.put_value(&mut e, o, None, false);
        }
        let bytes = e.finish();
        // The entropy of a one-in-ten bit is 0.47 bits.
        assert!(bytes.len() * 8 < 4096, "{} bytes", bytes.len());
    }
}
