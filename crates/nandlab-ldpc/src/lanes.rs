//! 64 lanes of 8-bit fixed-point LLRs: the vector operations of the fixed-point decoder.
//!
//! One lane holds one frame, so a vector is 64 frames of the same variable or edge. Every
//! operation is defined lane by lane on values in `[−127, 127]` (saturating, then clamped
//! at −127 so that negation never overflows and the arithmetic stays sign-symmetric), and
//! the three implementations (AVX-512BW: one 512-bit register; AVX2: two 256-bit
//! registers; portable: a `[i8; 64]` loop) give bit-identical results. The kernel using
//! them is generic and instantiated once per implementation inside a function compiled for
//! that instruction set, so the `#[inline(always)]` operations become single instructions.

/// Frames per vector.
pub const LANES: usize = 64;

/// Lane-wise operations on 64 × i8 (values kept in `[−127, 127]`).
pub(crate) trait Lanes: Copy {
    /// Loads 64 bytes.
    ///
    /// # Safety
    /// `p` is valid for 64 bytes and the implementation's instruction set is present.
    unsafe fn load(p: *const i8) -> Self;
    /// Stores 64 bytes.
    ///
    /// # Safety
    /// As [`Lanes::load`].
    unsafe fn store(self, p: *mut i8);
    /// Every lane `x`.
    fn splat(x: i8) -> Self;
    /// `max(a + b, −127)`, saturating at 127.
    fn add(self, o: Self) -> Self;
    /// `max(a − b, −127)`, saturating at 127.
    fn sub(self, o: Self) -> Self;
    /// `|a|`.
    fn abs(self) -> Self;
    /// Lane-wise minimum.
    fn min(self, o: Self) -> Self;
    /// Lane-wise maximum.
    fn max(self, o: Self) -> Self;
    /// Bitwise xor (the sign bit is the parity of the signs).
    fn xor(self, o: Self) -> Self;
    /// Bitwise and.
    fn and(self, o: Self) -> Self;
    /// `if a < b { x } else { y }` per lane.
    fn select_lt(a: Self, b: Self, x: Self, y: Self) -> Self;
    /// `if a == b { x } else { y }` per lane.
    fn select_eq(a: Self, b: Self, x: Self, y: Self) -> Self;
    /// `if s < 0 { −self } else { self }` per lane.
    fn negate_where(self, s: Self) -> Self;
    /// `(a · mul) >> 8` for `a ∈ [0, 127]` (normalized min-sum scaling).
    fn scale(self, mul: u8) -> Self;
    /// `max(a − b, 0)` for `a, b ≥ 0` (offset min-sum).
    fn sub_floor0(self, b: Self) -> Self;
    /// Bit `f` set when lane `f` is negative.
    fn sign_mask(self) -> u64;
}

/// Portable implementation: plain loops over the lanes.
#[derive(Clone, Copy)]
pub(crate) struct Portable([i8; LANES]);

impl Portable {
    #[inline(always)]
    fn map2(self, o: Self, f: impl Fn(i8, i8) -> i8) -> Self {
        let mut r = [0i8; LANES];
        for ((r, &a), &b) in r.iter_mut().zip(&self.0).zip(&o.0) {
            *r = f(a, b);
        }
        Portable(r)
    }
}

impl Lanes for Portable {
    #[inline(always)]
    unsafe fn load(p: *const i8) -> Self {
        Portable(std::ptr::read_unaligned(p.cast::<[i8; LANES]>()))
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut i8) {
        std::ptr::write_unaligned(p.cast::<[i8; LANES]>(), self.0);
    }
    #[inline(always)]
    fn splat(x: i8) -> Self {
        Portable([x; LANES])
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self.map2(o, |a, b| a.saturating_add(b).max(-127))
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self.map2(o, |a, b| a.saturating_sub(b).max(-127))
    }
    #[inline(always)]
    fn abs(self) -> Self {
        self.map2(self, |a, _| a.abs())
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        self.map2(o, std::cmp::min)
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        self.map2(o, std::cmp::max)
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        self.map2(o, |a, b| a ^ b)
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self.map2(o, |a, b| a & b)
    }
    #[inline(always)]
    fn select_lt(a: Self, b: Self, x: Self, y: Self) -> Self {
        let mut r = y.0;
        for (f, r) in r.iter_mut().enumerate() {
            if a.0[f] < b.0[f] {
                *r = x.0[f];
            }
        }
        Portable(r)
    }
    #[inline(always)]
    fn select_eq(a: Self, b: Self, x: Self, y: Self) -> Self {
        let mut r = y.0;
        for (f, r) in r.iter_mut().enumerate() {
            if a.0[f] == b.0[f] {
                *r = x.0[f];
            }
        }
        Portable(r)
    }
    #[inline(always)]
    fn negate_where(self, s: Self) -> Self {
        self.map2(s, |a, s| if s < 0 { -a } else { a })
    }
    #[inline(always)]
    fn scale(self, mul: u8) -> Self {
        self.map2(self, |a, _| ((a as u16 * u16::from(mul)) >> 8) as i8)
    }
    #[inline(always)]
    fn sub_floor0(self, b: Self) -> Self {
        self.map2(b, |a, b| (a - b).max(0))
    }
    #[inline(always)]
    fn sign_mask(self) -> u64 {
        self.0
            .iter()
            .enumerate()
            .fold(0u64, |m, (f, &a)| m | (u64::from(a < 0) << f))
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use x86::{Avx2, Avx512};

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! SAFETY (whole module): values of these types are only created inside functions
    //! compiled with the matching `#[target_feature]`, which the decoder calls only after
    //! `is_x86_feature_detected!` reported the feature.
    use super::{Lanes, LANES};
    use std::arch::x86_64::*;

    /// AVX2: the 64 lanes in two 256-bit registers.
    #[derive(Clone, Copy)]
    pub(crate) struct Avx2(__m256i, __m256i);

    impl Avx2 {
        #[inline(always)]
        fn map(self, o: Self, f: impl Fn(__m256i, __m256i) -> __m256i) -> Self {
            Avx2(f(self.0, o.0), f(self.1, o.1))
        }
    }

    impl Lanes for Avx2 {
        #[inline(always)]
        unsafe fn load(p: *const i8) -> Self {
            Avx2(
                _mm256_loadu_si256(p.cast()),
                _mm256_loadu_si256(p.add(LANES / 2).cast()),
            )
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut i8) {
            _mm256_storeu_si256(p.cast(), self.0);
            _mm256_storeu_si256(p.add(LANES / 2).cast(), self.1);
        }
        #[inline(always)]
        fn splat(x: i8) -> Self {
            unsafe { Avx2(_mm256_set1_epi8(x), _mm256_set1_epi8(x)) }
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            self.map(o, |a, b| unsafe {
                _mm256_max_epi8(_mm256_adds_epi8(a, b), _mm256_set1_epi8(-127))
            })
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            self.map(o, |a, b| unsafe {
                _mm256_max_epi8(_mm256_subs_epi8(a, b), _mm256_set1_epi8(-127))
            })
        }
        #[inline(always)]
        fn abs(self) -> Self {
            self.map(self, |a, _| unsafe { _mm256_abs_epi8(a) })
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            self.map(o, |a, b| unsafe { _mm256_min_epi8(a, b) })
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            self.map(o, |a, b| unsafe { _mm256_max_epi8(a, b) })
        }
        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            self.map(o, |a, b| unsafe { _mm256_xor_si256(a, b) })
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            self.map(o, |a, b| unsafe { _mm256_and_si256(a, b) })
        }
        #[inline(always)]
        fn select_lt(a: Self, b: Self, x: Self, y: Self) -> Self {
            unsafe {
                let m0 = _mm256_cmpgt_epi8(b.0, a.0);
                let m1 = _mm256_cmpgt_epi8(b.1, a.1);
                Avx2(_mm256_blendv_epi8(y.0, x.0, m0), _mm256_blendv_epi8(y.1, x.1, m1))
            }
        }
        #[inline(always)]
        fn select_eq(a: Self, b: Self, x: Self, y: Self) -> Self {
            unsafe {
                let m0 = _mm256_cmpeq_epi8(a.0, b.0);
                let m1 = _mm256_cmpeq_epi8(a.1, b.1);
                Avx2(_mm256_blendv_epi8(y.0, x.0, m0), _mm256_blendv_epi8(y.1, x.1, m1))
            }
        }
        #[inline(always)]
        fn negate_where(self, s: Self) -> Self {
            unsafe {
                let z = _mm256_setzero_si256();
                Avx2(
                    _mm256_blendv_epi8(self.0, _mm256_sub_epi8(z, self.0), s.0),
                    _mm256_blendv_epi8(self.1, _mm256_sub_epi8(z, self.1), s.1),
                )
            }
        }
        #[inline(always)]
        fn scale(self, mul: u8) -> Self {
            // Widen to 16 bits, multiply, shift, pack back (lanes stay in order because
            // unpack and pack work on the same 128-bit halves).
            self.map(self, |a, _| unsafe {
                let z = _mm256_setzero_si256();
                let m = _mm256_set1_epi16(i16::from(mul));
                let lo = _mm256_srli_epi16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(a, z), m), 8);
                let hi = _mm256_srli_epi16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(a, z), m), 8);
                _mm256_packus_epi16(lo, hi)
            })
        }
        #[inline(always)]
        fn sub_floor0(self, b: Self) -> Self {
            self.map(b, |a, b| unsafe { _mm256_subs_epu8(a, b) })
        }
        #[inline(always)]
        fn sign_mask(self) -> u64 {
            unsafe {
                u64::from(_mm256_movemask_epi8(self.0) as u32) | (u64::from(_mm256_movemask_epi8(self.1) as u32) << 32)
            }
        }
    }

    /// AVX-512BW: the 64 lanes in one 512-bit register.
    #[derive(Clone, Copy)]
    pub(crate) struct Avx512(__m512i);

    impl Lanes for Avx512 {
        #[inline(always)]
        unsafe fn load(p: *const i8) -> Self {
            Avx512(_mm512_loadu_si512(p.cast()))
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut i8) {
            _mm512_storeu_si512(p.cast(), self.0);
        }
        #[inline(always)]
        fn splat(x: i8) -> Self {
            unsafe { Avx512(_mm512_set1_epi8(x)) }
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            unsafe { Avx512(_mm512_max_epi8(_mm512_adds_epi8(self.0, o.0), _mm512_set1_epi8(-127))) }
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            unsafe { Avx512(_mm512_max_epi8(_mm512_subs_epi8(self.0, o.0), _mm512_set1_epi8(-127))) }
        }
        #[inline(always)]
        fn abs(self) -> Self {
            unsafe { Avx512(_mm512_abs_epi8(self.0)) }
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            unsafe { Avx512(_mm512_min_epi8(self.0, o.0)) }
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            unsafe { Avx512(_mm512_max_epi8(self.0, o.0)) }
        }
        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            unsafe { Avx512(_mm512_xor_si512(self.0, o.0)) }
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            unsafe { Avx512(_mm512_and_si512(self.0, o.0)) }
        }
        #[inline(always)]
        fn select_lt(a: Self, b: Self, x: Self, y: Self) -> Self {
            unsafe { Avx512(_mm512_mask_blend_epi8(_mm512_cmplt_epi8_mask(a.0, b.0), y.0, x.0)) }
        }
        #[inline(always)]
        fn select_eq(a: Self, b: Self, x: Self, y: Self) -> Self {
            unsafe { Avx512(_mm512_mask_blend_epi8(_mm512_cmpeq_epi8_mask(a.0, b.0), y.0, x.0)) }
        }
        #[inline(always)]
        fn negate_where(self, s: Self) -> Self {
            unsafe {
                let m = _mm512_movepi8_mask(s.0);
                Avx512(_mm512_mask_sub_epi8(self.0, m, _mm512_setzero_si512(), self.0))
            }
        }
        #[inline(always)]
        fn scale(self, mul: u8) -> Self {
            unsafe {
                let z = _mm512_setzero_si512();
                let m = _mm512_set1_epi16(i16::from(mul));
                let lo = _mm512_srli_epi16(_mm512_mullo_epi16(_mm512_unpacklo_epi8(self.0, z), m), 8);
                let hi = _mm512_srli_epi16(_mm512_mullo_epi16(_mm512_unpackhi_epi8(self.0, z), m), 8);
                Avx512(_mm512_packus_epi16(lo, hi))
            }
        }
        #[inline(always)]
        fn sub_floor0(self, b: Self) -> Self {
            unsafe { Avx512(_mm512_subs_epu8(self.0, b.0)) }
        }
        #[inline(always)]
        fn sign_mask(self) -> u64 {
            unsafe { _mm512_movepi8_mask(self.0) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every lane function on all 255 × 255 value pairs (in chunks of 64 lanes) against
    /// the portable definition.
    fn check_against_portable<L: Lanes>() {
        let to = |v: L| {
            let mut o = [0i8; LANES];
            // SAFETY: the caller checked the instruction set; `o` has 64 bytes.
            unsafe { v.store(o.as_mut_ptr()) };
            o
        };
        let vals: Vec<i8> = (-127..=127).collect();
        let pairs: Vec<(i8, i8)> = vals.iter().flat_map(|&a| vals.iter().map(move |&b| (a, b))).collect();
        for chunk in pairs.chunks(LANES) {
            let mut a = [0i8; LANES];
            let mut b = [0i8; LANES];
            for (f, &(x, y)) in chunk.iter().enumerate() {
                a[f] = x;
                b[f] = y;
            }
            let (pa, pb) = (Portable(a), Portable(b));
            // SAFETY: the caller checked the instruction set.
            let (la, lb) = unsafe { (L::load(a.as_ptr()), L::load(b.as_ptr())) };
            let nonneg = |v: [i8; LANES]| v.map(|x| x.max(0));
            let (na, nb) = (nonneg(a), nonneg(b));
            let (pna, pnb) = (Portable(na), Portable(nb));
            let (lna, lnb) = unsafe { (L::load(na.as_ptr()), L::load(nb.as_ptr())) };
            assert_eq!(to(la.add(lb)), pa.add(pb).0);
            assert_eq!(to(la.sub(lb)), pa.sub(pb).0);
            assert_eq!(to(la.abs()), pa.abs().0);
            assert_eq!(to(la.min(lb)), pa.min(pb).0);
            assert_eq!(to(la.max(lb)), pa.max(pb).0);
            assert_eq!(to(la.xor(lb)), pa.xor(pb).0);
            assert_eq!(to(la.and(lb)), pa.and(pb).0);
            assert_eq!(
                to(L::select_lt(la, lb, lna, lnb)),
                Portable::select_lt(pa, pb, pna, pnb).0
            );
            assert_eq!(
                to(L::select_eq(la, lb, lna, lnb)),
                Portable::select_eq(pa, pb, pna, pnb).0
            );
            assert_eq!(to(la.negate_where(lb)), pa.negate_where(pb).0);
            assert_eq!(to(lna.scale(192)), pna.scale(192).0);
            assert_eq!(to(lna.sub_floor0(lnb)), pna.sub_floor0(pnb).0);
            assert_eq!(la.sign_mask(), pa.sign_mask());
        }
    }

    #[test]
    fn portable_ops_by_hand() {
        let a = Portable([-127; LANES]);
        let b = Portable([100; LANES]);
        assert_eq!(a.sub(b).0[0], -127, "saturates at −127, not −128");
        assert_eq!(b.add(b).0[0], 127);
        assert_eq!(b.scale(192).0[0], 75, "100 · 0.75");
        assert_eq!(Portable([5; LANES]).scale(192).0[0], 3, "floor(3.75)");
        assert_eq!(a.sign_mask(), u64::MAX);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn simd_lanes_equal_portable_on_every_value_pair() {
        if std::arch::is_x86_feature_detected!("avx2") {
            #[target_feature(enable = "avx2")]
            unsafe fn run() {
                check_against_portable::<Avx2>();
            }
            unsafe { run() };
        } else {
            eprintln!("skipped AVX2: CPU lacks it");
        }
        if std::arch::is_x86_feature_detected!("avx512bw") {
            #[target_feature(enable = "avx512bw")]
            unsafe fn run() {
                check_against_portable::<Avx512>();
            }
            unsafe { run() };
        } else {
            eprintln!("skipped AVX-512: CPU lacks AVX-512BW");
        }
    }
}
