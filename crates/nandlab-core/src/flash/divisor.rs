//! Division by a size fixed at set-up (planes, blocks per plane, pages per block): a
//! stored shift and mask when the size is a power of two (every shipped preset),
//! multiply-and-shift otherwise. `strength_reduce`'s own power-of-two path tests its
//! 128-bit multiplier and recomputes the shift on every call (~11 instructions; the hot
//! path divides three or four times a page).

use strength_reduce::{StrengthReducedU32, StrengthReducedU64};

macro_rules! divisor {
    ($name:ident, $t:ty, $reduced:ty) => {
        #[doc = concat!("A fixed `", stringify!($t), "` divisor (at least 1).")]
        #[derive(Debug, Clone, Copy)]
        pub struct $name {
            /// log2 of the divisor, or `u32::MAX` when it is no power of two.
            shift: u32,
            mask: $t,
            reduced: $reduced,
        }

        impl $name {
            /// Panics if `d` is 0.
            pub fn new(d: $t) -> Self {
                let pow2 = d.is_power_of_two();
                $name {
                    shift: if pow2 { d.trailing_zeros() } else { u32::MAX },
                    mask: d.wrapping_sub(1),
                    reduced: <$reduced>::new(d),
                }
            }

            /// The divisor.
            #[inline(always)]
            pub fn get(self) -> $t {
                self.reduced.get()
            }

            /// `(n / d, n % d)`.
            #[inline(always)]
            pub fn div_rem(self, n: $t) -> ($t, $t) {
                if self.shift != u32::MAX {
                    (n >> self.shift, n & self.mask)
                } else {
                    <$reduced>::div_rem(n, self.reduced)
                }
            }

            /// `n * d`.
            #[inline(always)]
            pub fn times(self, n: $t) -> $t {
                if self.shift != u32::MAX {
                    n << self.shift
                } else {
                    n * self.get()
                }
            }
        }
    };
}

divisor!(Divisor32, u32, StrengthReducedU32);
divisor!(Divisor64, u64, StrengthReducedU64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_plain_division_for_powers_of_two_and_others() {
        for d in [1u64, 2, 3, 7, 64, 100, 512, 131_072, 1 << 40] {
            let v = Divisor64::new(d);
            let w = Divisor32::new(d.min(u64::from(u32::MAX)) as u32);
            for n in [0u64, 1, d - 1, d, d + 1, 12_345_678_901, u64::from(u32::MAX)] {
                assert_eq!(v.div_rem(n), (n / d, n % d), "{n} / {d}");
                assert_eq!(v.times(n % 1000), (n % 1000) * d);
                let (n32, d32) = (n as u32, w.get());
                assert_eq!(w.div_rem(n32), (n32 / d32, n32 % d32), "{n32} / {d32}");
            }
        }
    }
}
