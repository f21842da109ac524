//! Large zero-filled arrays for the hash tables: allocated zeroed (the OS
//! hands out zero pages lazily, so a big table costs nothing until used),
//! sized in megabytes, and a failed allocation is an error, not an abort.

use std::alloc::{self, Layout};
use std::ptr::NonNull;

/// A table could not be allocated.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AllocError;

/// Types for which all-zero bytes are a valid (empty) value.
///
/// # Safety
/// Implement only for types whose every field is valid when zeroed
/// (integers, atomics of integers, arrays of them).
pub unsafe trait ZeroValid {}

/// A heap array of `T` that starts zeroed.
pub struct ZeroedArray<T: ZeroValid> {
    ptr: NonNull<T>,
    len: usize,
    /// What was allocated (`ptr` is inside it, aligned for `T`).
    base: NonNull<u8>,
    layout: Layout,
}

// Shared or sent like a `Box<[T]>`.
unsafe impl<T: ZeroValid + Send> Send for ZeroedArray<T> {}
unsafe impl<T: ZeroValid + Sync> Sync for ZeroedArray<T> {}

/// The alignment the allocator's zeroed path (calloc) gives, which leaves
/// fresh pages untouched. Asking for more makes it allocate and then write
/// every byte: seconds and the whole size in memory for a large table.
const CALLOC_ALIGN: usize = 16;

/// Size of a huge page (x86-64 and most Linux systems).
const HUGE_PAGE: usize = 2 << 20;

/// Asks Linux to back `len` bytes at `ptr` (huge-page aligned, not yet
/// touched) with huge pages. Probes land anywhere in a table of gigabytes:
/// with 4 KB pages nearly each one misses the TLB as well as the cache,
/// and the page walk was most of the solver's time at its prefetch. Only a
/// hint; where it is refused (THP off) nothing changes.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    // The C library's madvise (std links it); MADV_HUGEPAGE is 14 on Linux.
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    // SAFETY: the range lies inside a live allocation of ours; the advice
    // changes how its pages are backed, never their contents.
    let rc = unsafe { madvise(ptr.cast(), len, MADV_HUGEPAGE) };
    if rc != 0 {
        log::debug!("madvise(MADV_HUGEPAGE) refused; the table uses small pages");
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

impl<T: ZeroValid> ZeroedArray<T> {
    /// As many `T` as fit in `mb` megabytes (at least one).
    pub fn with_megabytes(mb: usize) -> Result<ZeroedArray<T>, AllocError> {
        let bytes = mb.max(1).checked_mul(1 << 20).ok_or(AllocError)?;
        let len = (bytes / std::mem::size_of::<T>()).max(1);
        let size = Layout::array::<T>(len).map_err(|_| AllocError)?.size();
        // Over-allocate at calloc's alignment and align by hand: to the
        // element, and a large table to a huge page.
        let huge = size >= HUGE_PAGE;
        let align = if huge {
            HUGE_PAGE.max(std::mem::align_of::<T>())
        } else {
            std::mem::align_of::<T>()
        };
        let slack = align.saturating_sub(CALLOC_ALIGN);
        let layout =
            Layout::from_size_align(size.checked_add(slack).ok_or(AllocError)?, CALLOC_ALIGN)
                .map_err(|_| AllocError)?;
        // SAFETY: the layout has a non-zero size.
        let base = NonNull::new(unsafe { alloc::alloc_zeroed(layout) }).ok_or(AllocError)?;
        let offset = base.as_ptr().align_offset(align);
        debug_assert!(offset <= slack);
        // SAFETY: `offset <= slack`, so `len` elements fit after it; zeroed
        // bytes are a valid `T` (`ZeroValid`).
        let ptr = unsafe { NonNull::new_unchecked(base.as_ptr().add(offset) as *mut T) };
        if huge {
            advise_huge_pages(ptr.as_ptr() as *mut u8, size - size % HUGE_PAGE);
        }
        Ok(ZeroedArray {
            ptr,
            len,
            base,
            layout,
        })
    }

    /// Number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Never empty (kept for clippy's `len` convention).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The elements.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: `len` initialised (zeroed) elements live at `ptr`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The elements, mutably.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as `as_slice`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }

    /// The element a 64-bit key falls on (keys spread evenly over the array).
    #[inline(always)]
    pub fn index_of(&self, key: u64) -> usize {
        ((key as u128 * self.len as u128) >> 64) as usize
    }
}

impl<T: ZeroValid> Drop for ZeroedArray<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `with_megabytes` with this layout.
        unsafe { alloc::dealloc(self.base.as_ptr(), self.layout) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Pair(u64, u64);
    unsafe impl ZeroValid for Pair {}

    #[test]
    fn megabytes_of_zeroes() {
        let mut a = ZeroedArray::<Pair>::with_megabytes(1).unwrap();
        assert_eq!(a.len(), (1 << 20) / 16);
        assert!(a.as_slice().iter().all(|p| *p == Pair(0, 0)));
        a.as_mut_slice()[7] = Pair(1, 2);
        assert_eq!(a.as_slice()[7], Pair(1, 2));
        assert!(a.index_of(u64::MAX) < a.len());
        assert_eq!(a.index_of(0), 0);
        assert!(ZeroedArray::<Pair>::with_megabytes(usize::MAX).is_err());
    }

    #[repr(align(64))]
    struct Line([u64; 8]);
    unsafe impl ZeroValid for Line {}

    #[test]
    fn over_aligned_elements_are_aligned_and_zero() {
        let mut a = ZeroedArray::<Line>::with_megabytes(2).unwrap();
        assert_eq!(a.len(), (2 << 20) / 64);
        // Two megabytes: aligned to a huge page, for the kernel to back it
        // with one.
        assert_eq!(a.as_slice().as_ptr() as usize % HUGE_PAGE, 0);
        assert!(a.as_slice().iter().all(|l| l.0 == [0; 8]));
        let last = a.len() - 1;
        a.as_mut_slice()[last].0[7] = 9;
        assert_eq!(a.as_slice()[last].0[7], 9);
    }
}
