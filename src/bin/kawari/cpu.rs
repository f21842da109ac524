//! The instruction sets this binary was built for, checked against the CPU
//! before anything else runs. The default build (x86-64-v2) runs on about
//! every x86-64 machine; a binary built with `target-cpu=native` (or any
//! higher level) and copied to an older one says which instructions are
//! missing and exits with status 1, instead of dying on an illegal
//! instruction with no word of why.
//!
//! On Linux the check runs as a load-time constructor, before Rust's own
//! start-up code: with link-time optimisation that code is compiled for the
//! target CPU too, and a native build's start-up already uses AVX. The check
//! itself is plain integer code, CPUID and two system calls.

/// One feature a build may enable: its `target_feature` name, and where
/// CPUID reports it (leaf, register, bit).
struct Feature {
    name: &'static str,
    enabled: bool,
    leaf: u32,
    reg: Reg,
    bit: u32,
}

/// A CPUID output register.
#[derive(Copy, Clone)]
enum Reg {
    Ebx,
    Ecx,
}

macro_rules! features {
    ($(($name:tt, $leaf:expr, $reg:ident, $bit:expr)),* $(,)?) => {
        [$(Feature {
            name: $name,
            enabled: cfg!(target_feature = $name),
            leaf: $leaf,
            reg: Reg::$reg,
            bit: $bit,
        }),*]
    };
}

/// The features a compiler may use in general code, and their CPUID bits
/// (Intel SDM vol. 2A, CPUID; 0x8000_0001 for LZCNT).
static FEATURES: [Feature; 20] = features!(
    ("sse3", 1, Ecx, 0),
    ("ssse3", 1, Ecx, 9),
    ("fma", 1, Ecx, 12),
    ("cmpxchg16b", 1, Ecx, 13),
    ("sse4.1", 1, Ecx, 19),
    ("sse4.2", 1, Ecx, 20),
    ("movbe", 1, Ecx, 22),
    ("popcnt", 1, Ecx, 23),
    ("avx", 1, Ecx, 28),
    ("f16c", 1, Ecx, 29),
    ("bmi1", 7, Ebx, 3),
    ("avx2", 7, Ebx, 5),
    ("bmi2", 7, Ebx, 8),
    ("avx512f", 7, Ebx, 16),
    ("avx512dq", 7, Ebx, 17),
    ("avx512cd", 7, Ebx, 28),
    ("avx512bw", 7, Ebx, 30),
    ("avx512vl", 7, Ebx, 31),
    ("avx512vnni", 7, Ecx, 11),
    ("lzcnt", 0x8000_0001, Ecx, 5),
);

/// Whether the CPU reports `f`.
#[cfg(target_arch = "x86_64")]
fn cpu_has(f: &Feature) -> bool {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    // SAFETY: CPUID exists on every x86-64 CPU; a leaf above the CPU's
    // highest reads as zeros, which is "absent".
    #[allow(unused_unsafe)]
    let regs = unsafe {
        let top = __cpuid(f.leaf & 0x8000_0000).eax;
        if f.leaf > top {
            return false;
        }
        __cpuid_count(f.leaf, 0)
    };
    let word = match f.reg {
        Reg::Ebx => regs.ebx,
        Reg::Ecx => regs.ecx,
    };
    word >> f.bit & 1 == 1
}

/// The features the build enabled that the CPU lacks (none elsewhere than
/// x86-64, where the compiler's target is the machine's). Linux x86-64 checks
/// at load time instead (`at_load`).
#[cfg(any(test, not(all(target_arch = "x86_64", target_os = "linux"))))]
pub fn missing_features() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    return FEATURES
        .iter()
        .filter(|f| f.enabled && !cpu_has(f))
        .map(|f| f.name)
        .collect();
    #[cfg(not(target_arch = "x86_64"))]
    Vec::new()
}

/// The message's first and last parts; the missing features go between.
const REFUSAL_HEAD: &str = "kawari: this binary was built for a newer CPU; this one lacks";
/// See `REFUSAL_HEAD`.
const REFUSAL_TAIL: &str =
    ". Build it on this machine with the default (portable) settings: cargo build --release\n";

/// The refusal, for the check at `main`'s start where the constructor does
/// not run (outside Linux).
#[cfg(any(test, not(all(target_arch = "x86_64", target_os = "linux"))))]
pub fn check() -> Result<(), String> {
    let missing = missing_features();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{REFUSAL_HEAD} {}{}",
            missing.join(" "),
            REFUSAL_TAIL.trim_end()
        ))
    }
}

/// The load-time check (Linux, x86-64): writes the refusal to stderr and
/// exits with status 1 through system calls, touching nothing of std.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod at_load {
    use super::{cpu_has, FEATURES, REFUSAL_HEAD, REFUSAL_TAIL};

    /// Runs before `main` (and before std's start-up), as C constructors do.
    #[used]
    #[link_section = ".init_array"]
    static CHECK_AT_LOAD: extern "C" fn() = refuse_a_cpu_too_old;

    extern "C" fn refuse_a_cpu_too_old() {
        let mut any = false;
        for f in FEATURES.iter() {
            if f.enabled && !cpu_has(f) {
                if !any {
                    write_stderr(REFUSAL_HEAD.as_bytes());
                    any = true;
                }
                write_stderr(b" ");
                write_stderr(f.name.as_bytes());
            }
        }
        if any {
            write_stderr(REFUSAL_TAIL.as_bytes());
            exit(1);
        }
    }

    /// `write(2, bytes)`.
    fn write_stderr(bytes: &[u8]) {
        // SAFETY: the Linux x86-64 `write` system call (1) on fd 2 with a
        // valid buffer; it clobbers rcx and r11 only.
        unsafe {
            std::arch::asm!(
                "syscall",
                inlateout("rax") 1usize => _,
                in("rdi") 2usize,
                in("rsi") bytes.as_ptr(),
                in("rdx") bytes.len(),
                lateout("rcx") _,
                lateout("r11") _,
                options(nostack)
            );
        }
    }

    /// `exit_group(code)`.
    fn exit(code: usize) -> ! {
        // SAFETY: the Linux x86-64 `exit_group` system call (231); it does
        // not return.
        unsafe {
            std::arch::asm!("syscall", in("rax") 231usize, in("rdi") code, options(noreturn, nostack));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The building machine runs what it built, and CPUID agrees with std's
    /// detection on every feature both know.
    #[test]
    fn this_machine_runs_this_build() {
        assert!(missing_features().is_empty(), "{:?}", missing_features());
        assert!(check().is_ok());
        #[cfg(target_arch = "x86_64")]
        for f in &FEATURES {
            let std_says = match f.name {
                "sse3" => std::is_x86_feature_detected!("sse3"),
                "ssse3" => std::is_x86_feature_detected!("ssse3"),
                "sse4.1" => std::is_x86_feature_detected!("sse4.1"),
                "sse4.2" => std::is_x86_feature_detected!("sse4.2"),
                "popcnt" => std::is_x86_feature_detected!("popcnt"),
                "bmi1" => std::is_x86_feature_detected!("bmi1"),
                "bmi2" => std::is_x86_feature_detected!("bmi2"),
                "lzcnt" => std::is_x86_feature_detected!("lzcnt"),
                "movbe" => std::is_x86_feature_detected!("movbe"),
                "cmpxchg16b" => std::is_x86_feature_detected!("cmpxchg16b"),
                // AVX's family also needs the OS's support, which std checks
                // and CPUID alone does not: only "std says yes" is binding.
                _ => continue,
            };
            assert_eq!(cpu_has(f), std_says, "{}", f.name);
        }
    }
}
