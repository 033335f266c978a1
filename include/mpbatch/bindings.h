/* mpbatch/bindings.h: helpers for language bindings (the Python package's ctypes layer):
 * packing CPython int objects into batch rows and back without going through bytes.
 * Implemented in cpu/bindings/cpython.cpp. Not part of mpbatch.h: only a binding needs it.
 * Rows and mpb_call_info are those of mpbatch/batch.h. */
#ifndef MPBATCH_BINDINGS_H
#define MPBATCH_BINDINGS_H

#include <mpbatch/batch.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Binding helper for the Python package: packs CPython int objects into rows by reading
 * their 30-bit digits directly (CPython's own int -> bytes conversion costs more than many
 * batch operations). objs: count object addresses (id() of each int; the caller keeps them
 * alive). layout: 0 = CPython <= 3.11 (signed digit count at offset 16), 1 = CPython >= 3.12
 * (lv_tag at offset 16); digits start at offset 24, 30 bits each. The package checks the
 * layout against int.to_bytes at import and does not call this when they disagree.
 * A negative value or one wider than `width` limbs: MPB_ERANGE with bad_index (rows before it
 * are written: the caller packs into its own buffer). */
MPB_API int mpb_pack_cpython_ints(uint64_t *rows, size_t width, const uintptr_t *objs,
                                  size_t count, int layout, mpb_call_info *info);
/* The reverse, for the same binding: builds `count` CPython ints from rows and stores them in
 * the list `list` (count items, e.g. [None] * count) with set_item(list, i, obj) (CPython's
 * PyList_SetItem, which takes the reference). Values below 2^64 come from
 * from_u64(value) (PyLong_FromUnsignedLongLong); larger ones from new_long(ndigits)
 * (CPython's _PyLong_New) with their 30-bit digits written at offset 24 (the layouts above).
 * Rows may be up to 2 * MPB_BATCH_MAX_WIDTH limbs wide (products of the widest operands).
 * Must be called with the interpreter lock held. A NULL from a constructor: MPB_EMEM. */
MPB_API int mpb_unpack_cpython_ints(void *list, const uint64_t *rows, size_t width, size_t count,
                                    void *from_u64, void *new_long, void *set_item,
                                    mpb_call_info *info);
/* List forms of the two helpers above (what the package calls).
 * pack: items [start, start + count) of the CPython list `list` -> count rows. The list is read
 * directly (a PyListObject: its length at offset 16, its item array at offset 24; the package
 * checks this at import) and calls nothing in the interpreter, so it may run without the
 * interpreter lock provided nothing changes the list or frees its items meanwhile (the package
 * passes a private copy of the slice). int_type: the address of CPython's int type; an item of any other
 * type (bool, int subclasses, non-ints): MPB_EVAL; negative or wider than `width` limbs:
 * MPB_ERANGE; start + count beyond the list's length: MPB_ESHAPE. bad_index counts from
 * `start`. Every item is checked before anything is written: on error `rows` is untouched.
 * The work is split over `threads` threads (0: all cores) when count * width reaches an
 * internal size threshold; info->threads says how many ran.
 * unpack (interpreter lock held for the whole call, e.g. through ctypes.PyDLL): builds ints
 * from `count` rows and stores them at list[start + i] with set_item (the
 * list must have at least start + count items), in order, on the calling thread. A NULL from
 * a constructor: MPB_EMEM (bad_index = that row; the items stored before it are complete ints);
 * set_item failing: MPB_EVAL. */
MPB_API int mpb_pack_cpython_list(uint64_t *rows, size_t width, const void *list, size_t start,
                                  size_t count, int layout, const void *int_type, int threads,
                                  mpb_call_info *info);
MPB_API int mpb_unpack_cpython_list(void *list, size_t start, const uint64_t *rows, size_t width,
                                    size_t count, void *from_u64, void *new_long, void *set_item,
                                    mpb_call_info *info);

#ifdef __cplusplus
}
#endif
#endif /* MPBATCH_BINDINGS_H */
