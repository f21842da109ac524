//! The network's inner loops. Each is written once as plain integer code that
//! the compiler vectorizes; on x86-64 CPUs with AVX2 the same code is also
//! compiled for AVX2 and chosen at run time. Integer arithmetic makes both
//! give the same result (checked by a test).

#[inline(always)]
fn dot_clipped_portable<const CEIL: i16>(a: &[i16], w: &[i16]) -> i32 {
    // Products fit in i32 (255 * 32767), and i16 pairs summed stay far
    // below overflow for the sizes a file may have.
    a.iter()
        .zip(w)
        .map(|(&x, &y)| (x.clamp(0, CEIL) as i32) * y as i32)
        .sum()
}

#[inline(always)]
fn update_portable(acc: &mut [i16], removed: &[&[i16]], added: &[&[i16]]) {
    for r in removed {
        for (a, &w) in acc.iter_mut().zip(r.iter()) {
            *a = a.wrapping_sub(w);
        }
    }
    for r in added {
        for (a, &w) in acc.iter_mut().zip(r.iter()) {
            *a = a.wrapping_add(w);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dot_clipped_avx2<const CEIL: i16>(a: &[i16], w: &[i16]) -> i32 {
    dot_clipped_portable::<CEIL>(a, w)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn update_avx2(acc: &mut [i16], removed: &[&[i16]], added: &[&[i16]]) {
    update_portable(acc, removed, added)
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn has_avx2() -> bool {
    use once_cell::sync::Lazy;
    static AVX2: Lazy<bool> = Lazy::new(|| std::is_x86_feature_detected!("avx2"));
    *AVX2
}

/// `sum(clamp(a, 0, CEIL) * w)`: the clipped activation's ceiling is the
/// caller's (the network's quantization), a constant the kernels fold in.
#[inline]
pub fn dot_clipped<const CEIL: i16>(a: &[i16], w: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2.
        return unsafe { dot_clipped_avx2::<CEIL>(a, w) };
    }
    dot_clipped_portable::<CEIL>(a, w)
}

/// `acc -= each removed row; acc += each added row` (wrapping, as i16).
#[inline]
pub fn update(acc: &mut [i16], removed: &[&[i16]], added: &[&[i16]]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2.
        return unsafe { update_avx2(acc, removed, added) };
    }
    update_portable(acc, removed, added)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn vector_and_portable_code_agree() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for n in [16, 128, 256, 1024] {
            let a: Vec<i16> = (0..n).map(|_| rng.gen_range(-600..600)).collect();
            let w: Vec<i16> = (0..n).map(|_| rng.gen_range(-3000..3000)).collect();
            let r: Vec<i16> = (0..n).map(|_| rng.gen()).collect();
            let expect: i32 = a
                .iter()
                .zip(&w)
                .map(|(&x, &y)| x.clamp(0, 255) as i32 * y as i32)
                .sum();
            assert_eq!(dot_clipped::<255>(&a, &w), expect);
            assert_eq!(dot_clipped_portable::<255>(&a, &w), expect);
            let mut x = a.clone();
            let mut y = a.clone();
            update(&mut x, &[&w], &[&r, &w]);
            update_portable(&mut y, &[&w], &[&r, &w]);
            assert_eq!(x, y);
            let z: Vec<i16> = a.iter().zip(&r).map(|(p, q)| p.wrapping_add(*q)).collect();
            assert_eq!(x, z);
        }
    }
}
