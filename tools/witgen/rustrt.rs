/// The canonical-ABI runtime of these bindings: `cabi_realloc`, loading and
/// storing values in linear memory, flat lifting and lowering, and the
/// keep-list that holds an export's results until the host calls its
/// `cabi_post_…`. Guest memory is 32-bit: `usize` is a guest pointer.
/// The guest is single-threaded; nothing here is `Sync`.
pub mod rt {
    use std::alloc::{self, Layout};

    /// cabi_realloc is the allocator the host calls to place strings, lists
    /// and argument areas in guest memory: the canonical ABI's
    /// `(old_ptr, old_size, align, new_size) -> ptr`, through the Rust global
    /// allocator, so a value the host placed can be taken over by a `String`
    /// or `Vec<u8>` and freed by Rust. A zero-size request returns `align`
    /// (a dangling, aligned pointer) and allocates nothing. A new byte
    /// block (align 1) that fits the buffer [`spare`] kept is that buffer,
    /// with no allocation.
    #[no_mangle]
    pub unsafe extern "C" fn cabi_realloc(old_ptr: *mut u8, old_size: usize, align: usize, new_size: usize) -> *mut u8 {
        let old_size = if old_size == 0 { 0 } else { block_size(old_ptr as usize, old_size) };
        if new_size == 0 {
            if old_size != 0 {
                alloc::dealloc(old_ptr, layout(old_size, align));
            }
            return align as *mut u8;
        }
        if old_size == 0 && align == 1 && new_size <= SPARE.1 {
            LENT = SPARE;
            SPARE = (0, 0);
            return LENT.0 as *mut u8;
        }
        let p = if old_size == 0 {
            alloc::alloc(layout(new_size, align))
        } else {
            alloc::realloc(old_ptr, layout(old_size, align), new_size)
        };
        if p.is_null() {
            alloc::handle_alloc_error(layout(new_size, align));
        }
        p
    }

    /// SPARE is the byte buffer (address, capacity) [`spare`] keeps for the
    /// host's next byte block; LENT is that buffer once `cabi_realloc` has
    /// handed it out, until it is taken over or freed. (0, 0) when none.
    static mut SPARE: (usize, usize) = (0, 0);
    static mut LENT: (usize, usize) = (0, 0);

    /// SPARE_MAX is the largest buffer [`spare`] keeps (1 MiB).
    const SPARE_MAX: usize = 1 << 20;

    /// spare keeps v's allocation for the host's next byte block (a chunk
    /// of a stream, a string) when it is larger than the one kept, so an
    /// export called over and over with byte lists of similar size
    /// allocates nothing for them; otherwise v is dropped.
    pub fn spare(v: Vec<u8>) {
        let cap = v.capacity();
        unsafe {
            if cap == 0 || cap > SPARE_MAX || cap <= SPARE.1 {
                return;
            }
            let mut v = std::mem::ManuallyDrop::new(v);
            if SPARE.1 != 0 {
                alloc::dealloc(SPARE.0 as *mut u8, layout(SPARE.1, 1));
            }
            SPARE = (v.as_mut_ptr() as usize, cap);
        }
    }

    /// block_size returns the size of the block at p that the host knows
    /// as size bytes: the capacity of the lent spare buffer (which is then
    /// no longer lent) when p is that buffer, else size.
    unsafe fn block_size(p: usize, size: usize) -> usize {
        if LENT.1 != 0 && p == LENT.0 {
            let cap = LENT.1;
            LENT = (0, 0);
            return cap;
        }
        size
    }

    /// layout returns the layout of size bytes aligned to align, or aborts
    /// naming both when align is not a power of two.
    fn layout(size: usize, align: usize) -> Layout {
        match Layout::from_size_align(size, align) {
            Ok(l) => l,
            Err(_) => fail(format_args!("bad allocation: {} bytes aligned to {} (the alignment must be a power of two)", size, align)),
        }
    }

    /// free releases size bytes at p aligned to align, allocated by
    /// `cabi_realloc` (by the host) or by a `Keep`; zero sizes were never
    /// allocated.
    pub unsafe fn free(p: usize, size: usize, align: usize) {
        if size != 0 {
            alloc::dealloc(p as *mut u8, layout(block_size(p, size), align));
        }
    }

    static mut CALL: &str = "";

    /// lifting records the WIT function whose values are being lifted or
    /// stored, for the message of an abort on malformed host data.
    #[inline]
    pub fn lifting(function: &'static str) {
        unsafe { CALL = function }
    }

    /// fail aborts the guest with a message naming the WIT function in
    /// progress. It is reached only on malformed data from the host.
    #[cold]
    pub fn fail(msg: std::fmt::Arguments) -> ! {
        let call = unsafe { CALL };
        panic!("smith_plugin: {}: {}", call, msg)
    }

    /// bad aborts on a discriminant out of range for the WIT type named.
    #[cold]
    pub fn bad(wit_type: &str, disc: u32, cases: u32) -> ! {
        fail(format_args!("discriminant {} of {} is out of range ({} cases)", disc, wit_type, cases))
    }

    /// ld reads a T at guest address p.
    #[inline]
    pub unsafe fn ld<T: Copy>(p: usize) -> T {
        (p as *const T).read_unaligned()
    }

    /// st writes v at guest address p.
    #[inline]
    pub unsafe fn st<T>(p: usize, v: T) {
        (p as *mut T).write_unaligned(v)
    }

    /// align_to rounds off up to a multiple of align (a power of two).
    pub const fn align_to(off: usize, align: usize) -> usize {
        (off + align - 1) & !(align - 1)
    }

    const fn max(a: usize, b: usize) -> usize {
        if a > b {
            a
        } else {
            b
        }
    }

    /// Keep owns allocations made while lowering or storing values: for an
    /// import call until the call returns, for an export's results until
    /// the host calls its `cabi_post_…`. Dropping it frees them.
    pub struct Keep(Vec<(usize, Layout)>);

    /// KEEP_SPARE is the emptied list of the last keep-list dropped, for
    /// the next one: an export's result and each import call need a list,
    /// so reusing one saves an allocation and a free per call.
    static mut KEEP_SPARE: Vec<(usize, Layout)> = Vec::new();

    impl Keep {
        /// new returns an empty keep-list with the storage of the last one
        /// dropped, if any.
        pub fn new() -> Keep {
            Keep(unsafe { std::mem::take(&mut KEEP_SPARE) })
        }

        /// alloc allocates size bytes aligned to align, owned by the list.
        /// A zero size returns `align` and allocates nothing.
        pub fn alloc(&mut self, size: usize, align: usize) -> usize {
            if size == 0 {
                return align;
            }
            let l = layout(size, align);
            let p = unsafe { alloc::alloc(l) };
            if p.is_null() {
                alloc::handle_alloc_error(l);
            }
            self.0.push((p as usize, l));
            p as usize
        }
    }

    impl Drop for Keep {
        fn drop(&mut self) {
            for (p, l) in self.0.drain(..) {
                unsafe { alloc::dealloc(p as *mut u8, l) }
            }
            unsafe {
                if self.0.capacity() > KEEP_SPARE.capacity() {
                    KEEP_SPARE = std::mem::take(&mut self.0);
                }
            }
        }
    }

    /// Retained is an export's result with the allocations its stored form
    /// points into, alive until `post_return`.
    struct Retained {
        _value: Box<dyn std::any::Any>,
        _keep: Keep,
    }

    static mut RETAINED: Option<Retained> = None;

    /// RET_SIZE is the size of the static return area.
    const RET_SIZE: usize = 64;

    /// RetArea is the return area of every export result that fits it:
    /// one result is alive at a time (the host reads it before it calls
    /// again), so it needs no allocation.
    #[repr(C, align(8))]
    struct RetArea([u8; RET_SIZE]);

    static mut RET: RetArea = RetArea([0; RET_SIZE]);

    /// return_value stores an export's result v into a return area (the
    /// static one when it fits, else one it allocates) and returns the
    /// area's address. v and everything its stored form refers to stay
    /// alive until `post_return`.
    pub unsafe fn return_value<T: Canon + 'static>(v: T) -> usize {
        let mut keep = Keep::new();
        let p = if T::SIZE <= RET_SIZE && T::ALIGN <= 8 { std::ptr::addr_of_mut!(RET) as usize } else { keep.alloc(T::SIZE, T::ALIGN) };
        v.store(p, &mut keep);
        RETAINED = Some(Retained { _value: Box::new(v), _keep: keep });
        p
    }

    /// post_return frees what the last `return_value` kept: the body of
    /// every export's `cabi_post_…`.
    pub unsafe fn post_return() {
        RETAINED = None;
    }

    /// take_bytes takes over n bytes at p that the host allocated with
    /// `cabi_realloc(0, 0, 1, n)`.
    pub unsafe fn take_bytes(p: usize, n: usize) -> Vec<u8> {
        if n == 0 {
            return Vec::new();
        }
        Vec::from_raw_parts(p as *mut u8, n, block_size(p, n))
    }

    /// take_string takes over a UTF-8 string of n bytes at p that the host
    /// allocated with `cabi_realloc(0, 0, 1, n)`; invalid UTF-8 aborts.
    pub unsafe fn take_string(p: usize, n: usize) -> String {
        match String::from_utf8(take_bytes(p, n)) {
            Ok(s) => s,
            Err(e) => fail(format_args!("string at {:#x} ({} bytes) is not UTF-8: {}", p, n, e.utf8_error())),
        }
    }

    /// Canon is a value with a canonical-ABI form: its size and alignment
    /// in linear memory, loading and storing it there, and lifting and
    /// lowering it as flat core values. Flat values travel as `u64` bit
    /// patterns: i32 zero-extended, f32 as its bits. Loading and lifting
    /// take over the allocations the host made for strings and lists;
    /// storing and lowering record the allocations they make in a `Keep`
    /// and point into the value's own strings and byte lists, so the value
    /// must outlive the stored form.
    pub trait Canon: Sized {
        /// SIZE is the value's size in linear memory.
        const SIZE: usize;
        /// ALIGN is the value's alignment in linear memory.
        const ALIGN: usize;
        /// load reads the value stored at p.
        unsafe fn load(p: usize) -> Self;
        /// store writes the value at p.
        unsafe fn store(&self, p: usize, keep: &mut Keep);
        /// lift reads the value from its flat values.
        unsafe fn lift(f: &[u64]) -> Self;
        /// lower writes the value's flat values into f, which is zeroed.
        unsafe fn lower(&self, f: &mut [u64], keep: &mut Keep);

        /// load_list reads n elements stored at p and frees their memory,
        /// which the host allocated as n*SIZE bytes aligned to ALIGN.
        unsafe fn load_list(p: usize, n: usize) -> Vec<Self> {
            let size = list_bytes(n, Self::SIZE);
            let mut v = Vec::with_capacity(n);
            for i in 0..n {
                v.push(Self::load(p + i * Self::SIZE));
            }
            free(p, size, Self::ALIGN);
            v
        }

        /// store_list stores the elements of v in memory it allocates in
        /// keep and returns its address.
        unsafe fn store_list(v: &[Self], keep: &mut Keep) -> usize {
            let p = keep.alloc(list_bytes(v.len(), Self::SIZE), Self::ALIGN);
            for (i, x) in v.iter().enumerate() {
                x.store(p + i * Self::SIZE, keep);
            }
            p
        }
    }

    fn list_bytes(n: usize, size: usize) -> usize {
        match n.checked_mul(size) {
            Some(b) => b,
            None => fail(format_args!("list of {} elements of {} bytes overflows memory", n, size)),
        }
    }

    macro_rules! scalar {
        ($t:ty, $size:expr, |$f:ident| $lift:expr, |$v:ident| $lower:expr) => {
            impl Canon for $t {
                const SIZE: usize = $size;
                const ALIGN: usize = $size;
                #[inline]
                unsafe fn load(p: usize) -> Self {
                    ld::<$t>(p)
                }
                #[inline]
                unsafe fn store(&self, p: usize, _keep: &mut Keep) {
                    st::<$t>(p, *self)
                }
                #[inline]
                unsafe fn lift($f: &[u64]) -> Self {
                    $lift
                }
                #[inline]
                unsafe fn lower(&self, f: &mut [u64], _keep: &mut Keep) {
                    let $v = *self;
                    f[0] = $lower;
                }
            }
        };
    }

    scalar!(u16, 2, |f| f[0] as u16, |v| v as u64);
    scalar!(u32, 4, |f| f[0] as u32, |v| v as u64);
    scalar!(u64, 8, |f| f[0], |v| v);
    scalar!(i8, 1, |f| f[0] as i8, |v| v as i32 as u32 as u64);
    scalar!(i16, 2, |f| f[0] as i16, |v| v as i32 as u32 as u64);
    scalar!(i32, 4, |f| f[0] as i32, |v| v as u32 as u64);
    scalar!(i64, 8, |f| f[0] as i64, |v| v as u64);
    scalar!(f32, 4, |f| f32::from_bits(f[0] as u32), |v| v.to_bits() as u64);
    scalar!(f64, 8, |f| f64::from_bits(f[0]), |v| v.to_bits());

    impl Canon for u8 {
        const SIZE: usize = 1;
        const ALIGN: usize = 1;
        #[inline]
        unsafe fn load(p: usize) -> Self {
            ld::<u8>(p)
        }
        #[inline]
        unsafe fn store(&self, p: usize, _keep: &mut Keep) {
            st::<u8>(p, *self)
        }
        #[inline]
        unsafe fn lift(f: &[u64]) -> Self {
            f[0] as u8
        }
        #[inline]
        unsafe fn lower(&self, f: &mut [u64], _keep: &mut Keep) {
            f[0] = *self as u64;
        }
        unsafe fn load_list(p: usize, n: usize) -> Vec<Self> {
            take_bytes(p, n)
        }
        unsafe fn store_list(v: &[Self], _keep: &mut Keep) -> usize {
            v.as_ptr() as usize
        }
    }

    impl Canon for bool {
        const SIZE: usize = 1;
        const ALIGN: usize = 1;
        #[inline]
        unsafe fn load(p: usize) -> Self {
            ld::<u8>(p) != 0
        }
        #[inline]
        unsafe fn store(&self, p: usize, _keep: &mut Keep) {
            st::<u8>(p, *self as u8)
        }
        #[inline]
        unsafe fn lift(f: &[u64]) -> Self {
            f[0] as u32 != 0
        }
        #[inline]
        unsafe fn lower(&self, f: &mut [u64], _keep: &mut Keep) {
            f[0] = *self as u64;
        }
    }

    fn to_char(c: u32) -> char {
        match char::from_u32(c) {
            Some(c) => c,
            None => fail(format_args!("{:#x} is not a Unicode scalar value", c)),
        }
    }

    impl Canon for char {
        const SIZE: usize = 4;
        const ALIGN: usize = 4;
        #[inline]
        unsafe fn load(p: usize) -> Self {
            to_char(ld::<u32>(p))
        }
        #[inline]
        unsafe fn store(&self, p: usize, _keep: &mut Keep) {
            st::<u32>(p, *self as u32)
        }
        #[inline]
        unsafe fn lift(f: &[u64]) -> Self {
            to_char(f[0] as u32)
        }
        #[inline]
        unsafe fn lower(&self, f: &mut [u64], _keep: &mut Keep) {
            f[0] = *self as u32 as u64;
        }
    }

    impl Canon for () {
        const SIZE: usize = 0;
        const ALIGN: usize = 1;
        unsafe fn load(_p: usize) -> Self {}
        unsafe fn store(&self, _p: usize, _keep: &mut Keep) {}
        unsafe fn lift(_f: &[u64]) -> Self {}
        unsafe fn lower(&self, _f: &mut [u64], _keep: &mut Keep) {}
    }

    impl Canon for String {
        const SIZE: usize = 8;
        const ALIGN: usize = 4;
        unsafe fn load(p: usize) -> Self {
            take_string(ld::<u32>(p) as usize, ld::<u32>(p + 4) as usize)
        }
        unsafe fn store(&self, p: usize, _keep: &mut Keep) {
            store_str(self, p)
        }
        unsafe fn lift(f: &[u64]) -> Self {
            take_string(f[0] as u32 as usize, f[1] as u32 as usize)
        }
        unsafe fn lower(&self, f: &mut [u64], _keep: &mut Keep) {
            lower_str(self, f)
        }
    }

    impl<T: Canon> Canon for Vec<T> {
        const SIZE: usize = 8;
        const ALIGN: usize = 4;
        unsafe fn load(p: usize) -> Self {
            T::load_list(ld::<u32>(p) as usize, ld::<u32>(p + 4) as usize)
        }
        unsafe fn store(&self, p: usize, keep: &mut Keep) {
            store_slice(self, p, keep)
        }
        unsafe fn lift(f: &[u64]) -> Self {
            T::load_list(f[0] as u32 as usize, f[1] as u32 as usize)
        }
        unsafe fn lower(&self, f: &mut [u64], keep: &mut Keep) {
            lower_slice(self, f, keep)
        }
    }

    /// store_str stores s's pointer and length at p; s must outlive the
    /// stored form.
    pub unsafe fn store_str(s: &str, p: usize) {
        st::<u32>(p, s.as_ptr() as u32);
        st::<u32>(p + 4, s.len() as u32);
    }

    /// lower_str writes s's pointer and length as flat values; s must
    /// outlive them.
    pub unsafe fn lower_str(s: &str, f: &mut [u64]) {
        f[0] = s.as_ptr() as u32 as u64;
        f[1] = s.len() as u64;
    }

    /// store_slice stores v as a list at p.
    pub unsafe fn store_slice<T: Canon>(v: &[T], p: usize, keep: &mut Keep) {
        st::<u32>(p, T::store_list(v, keep) as u32);
        st::<u32>(p + 4, v.len() as u32);
    }

    /// lower_slice writes v as a list's flat pointer and length.
    pub unsafe fn lower_slice<T: Canon>(v: &[T], f: &mut [u64], keep: &mut Keep) {
        f[0] = T::store_list(v, keep) as u32 as u64;
        f[1] = v.len() as u64;
    }

    impl<T: Canon> Canon for Option<T> {
        const SIZE: usize = align_to(align_to(1, T::ALIGN) + T::SIZE, T::ALIGN);
        const ALIGN: usize = T::ALIGN;
        unsafe fn load(p: usize) -> Self {
            match ld::<u8>(p) {
                0 => None,
                1 => Some(T::load(p + align_to(1, T::ALIGN))),
                d => bad("option", d as u32, 2),
            }
        }
        unsafe fn store(&self, p: usize, keep: &mut Keep) {
            match self {
                None => st::<u8>(p, 0),
                Some(v) => {
                    st::<u8>(p, 1);
                    v.store(p + align_to(1, T::ALIGN), keep);
                }
            }
        }
        unsafe fn lift(f: &[u64]) -> Self {
            match f[0] as u32 {
                0 => None,
                1 => Some(T::lift(&f[1..])),
                d => bad("option", d, 2),
            }
        }
        unsafe fn lower(&self, f: &mut [u64], keep: &mut Keep) {
            if let Some(v) = self {
                f[0] = 1;
                v.lower(&mut f[1..], keep);
            }
        }
    }

    impl<T: Canon, E: Canon> Canon for Result<T, E> {
        const SIZE: usize = align_to(align_to(1, Self::ALIGN) + max(T::SIZE, E::SIZE), Self::ALIGN);
        const ALIGN: usize = max(T::ALIGN, E::ALIGN);
        unsafe fn load(p: usize) -> Self {
            let at = p + align_to(1, Self::ALIGN);
            match ld::<u8>(p) {
                0 => Ok(T::load(at)),
                1 => Err(E::load(at)),
                d => bad("result", d as u32, 2),
            }
        }
        unsafe fn store(&self, p: usize, keep: &mut Keep) {
            let at = p + align_to(1, Self::ALIGN);
            match self {
                Ok(v) => {
                    st::<u8>(p, 0);
                    v.store(at, keep);
                }
                Err(e) => {
                    st::<u8>(p, 1);
                    e.store(at, keep);
                }
            }
        }
        unsafe fn lift(f: &[u64]) -> Self {
            match f[0] as u32 {
                0 => Ok(T::lift(&f[1..])),
                1 => Err(E::lift(&f[1..])),
                d => bad("result", d, 2),
            }
        }
        unsafe fn lower(&self, f: &mut [u64], keep: &mut Keep) {
            match self {
                Ok(v) => v.lower(&mut f[1..], keep),
                Err(e) => {
                    f[0] = 1;
                    e.lower(&mut f[1..], keep);
                }
            }
        }
    }
}
