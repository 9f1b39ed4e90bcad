//! Large per-block tables: allocated with a hint that lets Linux back them with 2 MiB
//! pages. Building the device writes every block's record (12 MB for the 256 GiB preset);
//! with 4 KiB pages that is thousands of page faults, a third of the set-up time.

/// An empty vector with room for `n` elements, whose memory Linux is asked to back with
/// transparent huge pages (when the system allows them; elsewhere a plain allocation).
pub fn with_huge_pages<T>(n: usize) -> Vec<T> {
    let v: Vec<T> = Vec::with_capacity(n);
    #[cfg(target_os = "linux")]
    advise_huge(v.as_ptr().cast::<u8>(), n * std::mem::size_of::<T>());
    v
}

#[cfg(target_os = "linux")]
fn advise_huge(ptr: *const u8, bytes: usize) {
    const PAGE: usize = 4096;
    let start = (ptr as usize).next_multiple_of(PAGE);
    let end = (ptr as usize + bytes) & !(PAGE - 1);
    if end > start {
        // SAFETY: madvise only changes how the kernel backs pages of this process's own
        // allocation (the page-aligned part of it); it reads or writes no memory, and a
        // refusal (THP disabled) leaves the allocation as it was.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn behaves_as_a_plain_vector() {
        let mut v = super::with_huge_pages::<u32>(1 << 20);
        assert!(v.capacity() >= 1 << 20);
        v.extend(0..1 << 20);
        assert_eq!(v[12345], 12345);
    }
}
