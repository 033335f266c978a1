// The CPython binding helpers (cpu/bindings/cpython.cpp) on fake CPython objects built here:
// int objects (type pointer at offset 8, size word at 16 in both layouts, 30-bit digits from 24)
// and list objects (length at 16, item array at 24), with the three constructor callbacks of
// the unpack helpers. Every conversion is compared with a bit-by-bit reference; errors must
// write nothing; the threaded pack (large batches, threads = 2) must give the same results.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include <mpbatch/bindings.h>
#include <mpbatch/mpbatch.h>

namespace {

using u64 = uint64_t;
const uint32_t MASK30 = 0x3FFFFFFFu;

int int_type_tag, other_type_tag;  // addresses stand in for CPython's type objects

// ---- fake objects ----------------------------------------------------------------------------
struct Heap {
  std::vector<std::unique_ptr<u64[]>> blocks;
  unsigned char *alloc(size_t bytes) {
    blocks.emplace_back(new u64[(bytes + 7) / 8]);
    unsigned char *p = reinterpret_cast<unsigned char *>(blocks.back().get());
    std::memset(p, 0xA5, (bytes + 7) / 8 * 8);  // garbage: digits must all be written
    return p;
  }
};

// Bit i of the value (digits or limbs).
bool limb_bit(const u64 *r, size_t n, size_t i) { return i / 64 < n && ((r[i / 64] >> (i % 64)) & 1); }

// The normalized 30-bit digits of an n-limb value.
std::vector<uint32_t> ref_digits(const u64 *r, size_t n) {
  size_t bits = 64 * n;
  while (bits && !limb_bit(r, n, bits - 1)) bits--;
  std::vector<uint32_t> d((bits + 29) / 30, 0);
  for (size_t i = 0; i < bits; i++)
    if (limb_bit(r, n, i)) d[i / 30] |= 1u << (i % 30);
  return d;
}

void set_header(unsigned char *o, const void *type, size_t nd, bool neg, int layout) {
  std::memset(o, 0, 24);
  uintptr_t t = reinterpret_cast<uintptr_t>(type);
  std::memcpy(o + 8, &t, sizeof t);
  int64_t head;
  if (layout == 0) head = neg ? -(int64_t)nd : (int64_t)nd;
  else head = (int64_t)(((u64)nd << 3) | (neg ? 2u : nd == 0 ? 1u : 0u));
  std::memcpy(o + 16, &head, sizeof head);
}

unsigned char *make_int_obj(Heap &h, const std::vector<uint32_t> &d, int layout, bool neg = false,
                            const void *type = &int_type_tag) {
  unsigned char *o = h.alloc(24 + 4 * (d.size() ? d.size() : 1));
  set_header(o, type, d.size(), neg, layout);
  if (!d.empty()) std::memcpy(o + 24, d.data(), 4 * d.size());
  return o;
}

std::vector<uint32_t> obj_digits(const unsigned char *o, int layout) {
  int64_t head;
  std::memcpy(&head, o + 16, sizeof head);
  size_t nd = layout == 0 ? (size_t)head : (size_t)((u64)head >> 3);
  std::vector<uint32_t> d(nd);
  if (nd) std::memcpy(d.data(), o + 24, 4 * nd);
  return d;
}

struct FakeList {
  int64_t refcnt = 1;
  void *type = nullptr;
  int64_t size = 0;
  uintptr_t *items = nullptr;
  int64_t allocated = 0;
};
static_assert(offsetof(FakeList, size) == 16 && offsetof(FakeList, items) == 24, "list layout");

// ---- constructor callbacks for unpack --------------------------------------------------------
struct Maker {
  Heap heap;
  int layout = 0;
  long fail_after = -1;  // new_long returns NULL after this many successful calls (-1: never)
  long made = 0, small = 0;
};
Maker *g_maker = nullptr;

extern "C" void *cb_from_u64(unsigned long long v) {
  u64 x = v;
  g_maker->small++;
  return make_int_obj(g_maker->heap, ref_digits(&x, 1), g_maker->layout);
}
extern "C" void *cb_new_long(ptrdiff_t nd) {
  if (g_maker->fail_after >= 0 && g_maker->made >= g_maker->fail_after) return nullptr;
  g_maker->made++;
  unsigned char *o = g_maker->heap.alloc(24 + 4 * (size_t)nd);
  set_header(o, &int_type_tag, (size_t)nd, false, g_maker->layout);
  return o;
}
extern "C" int cb_set_item(void *list, ptrdiff_t i, void *obj) {
  FakeList *l = static_cast<FakeList *>(list);
  if (i < 0 || i >= l->size) return -1;
  l->items[i] = reinterpret_cast<uintptr_t>(obj);
  return 0;
}

// Random rows of width limbs with random bit lengths (0 .. 64 * width), edge values first.
std::vector<u64> random_rows(std::mt19937_64 &g, size_t count, size_t width) {
  std::vector<u64> rows(count * width, 0);
  for (size_t i = 0; i < count; i++) {
    u64 *r = rows.data() + i * width;
    size_t bits;
    switch (i) {
      case 0: bits = 0; break;
      case 1: bits = 64 * width; break;
      case 2: bits = 64; break;
      case 3: bits = 65 < 64 * width ? 65 : 64 * width; break;
      default: bits = g() % (64 * width + 1);
    }
    for (size_t b = 0; b < bits; b++)
      if ((g() & 1) || b + 1 == bits) r[b / 64] |= (u64)1 << (b % 64);
    if (i == 4)
      for (size_t k = 0; k < width; k++) r[k] = ~(u64)0;  // all ones
  }
  return rows;
}

const size_t WIDTHS[] = {1, 2, 3, 14, 15, 16, 29, 30, 31, 32, 33, 45, 64, 70, 1024};

} // namespace

TEST_CASE("pack_cpython_list / pack_cpython_ints match the digit reference", "[batch][cpython]") {
  std::mt19937_64 g(11);
  for (int layout = 0; layout < 2; layout++)
    for (size_t width : WIDTHS)
      for (int threads : {1, 2}) {
        // large enough for the threaded path when threads = 2
        size_t count = width >= 64 ? 600 : 40000 / width + 7;
        if (width == 1024) count = 40;
        auto rows = random_rows(g, count, width);
        Heap heap;
        std::vector<uintptr_t> items(count + 3);
        for (size_t i = 0; i < count; i++)
          items[i + 3] = reinterpret_cast<uintptr_t>(make_int_obj(heap, ref_digits(&rows[i * width], width), layout));
        FakeList list;
        list.size = (int64_t)items.size();
        list.items = items.data();
        std::vector<u64> got(count * width, 7);
        mpb_call_info info;
        REQUIRE(mpb_pack_cpython_list(got.data(), width, &list, 3, count, layout, &int_type_tag, threads, &info) == MPB_OK);
        CAPTURE(layout, width, threads, count);
        REQUIRE(got == rows);
        REQUIRE(info.threads >= 1);
        if (threads == 2 && count * width >= 65536) REQUIRE(info.threads == 2);
        // the id-array form
        std::vector<u64> got2(count * width, 7);
        REQUIRE(mpb_pack_cpython_ints(got2.data(), width, items.data() + 3, count, layout, nullptr) == MPB_OK);
        REQUIRE(got2 == rows);
      }
}

TEST_CASE("pack_cpython_list: bad items write nothing and name the first one", "[batch][cpython]") {
  const size_t width = 4, count = 20000;  // count * width: the threaded path with threads = 2
  std::mt19937_64 g(5);
  auto rows = random_rows(g, count, width);
  for (int layout = 0; layout < 2; layout++)
    for (int threads : {1, 2}) {
      Heap heap;
      std::vector<uintptr_t> items(count);
      for (size_t i = 0; i < count; i++)
        items[i] = reinterpret_cast<uintptr_t>(make_int_obj(heap, ref_digits(&rows[i * width], width), layout));
      FakeList list;
      list.size = (int64_t)count;
      list.items = items.data();
      const u64 CANARY = 0xC0FFEEull;
      std::vector<u64> out(count * width, CANARY);
      auto untouched = [&] {
        for (u64 x : out)
          if (x != CANARY) return false;
        return true;
      };
      mpb_call_info info;
      auto run = [&](size_t start, size_t n) {
        return mpb_pack_cpython_list(out.data(), width, &list, start, n, layout, &int_type_tag, threads, &info);
      };
      // wrong type late, negative earlier: the earliest one is reported
      std::vector<uint32_t> one{1};
      std::vector<uint32_t> wide((64 * width + 30) / 30, 1);  // more than 64 * width bits
      wide.back() = MASK30;
      uintptr_t keep17000 = items[17000], keep9000 = items[9000], keep15000 = items[15000];
      items[17000] = reinterpret_cast<uintptr_t>(make_int_obj(heap, one, layout, false, &other_type_tag));
      REQUIRE(run(0, count) == MPB_EVAL);
      REQUIRE(info.bad_index == 17000);
      REQUIRE(untouched());
      items[15000] = reinterpret_cast<uintptr_t>(make_int_obj(heap, wide, layout));
      REQUIRE(run(0, count) == MPB_ERANGE);
      REQUIRE(info.bad_index == 15000);
      items[9000] = reinterpret_cast<uintptr_t>(make_int_obj(heap, one, layout, true));
      REQUIRE(run(0, count) == MPB_ERANGE);
      REQUIRE(info.bad_index == 9000);
      REQUIRE(std::string(info.reason).find("negative") != std::string::npos);
      REQUIRE(run(8000, 2000) == MPB_ERANGE);
      REQUIRE(info.bad_index == 1000);  // counted from start
      REQUIRE(untouched());
      // an int of exactly 64 * width bits fits; one more bit does not
      std::vector<u64> top(width, 0);
      top[width - 1] = (u64)1 << 63;
      items[9000] = reinterpret_cast<uintptr_t>(make_int_obj(heap, ref_digits(top.data(), width), layout));
      items[15000] = keep15000, items[17000] = keep17000;
      REQUIRE(run(0, count) == MPB_OK);
      REQUIRE(std::memcmp(&out[9000 * width], top.data(), width * 8) == 0);
      items[9000] = keep9000;
      REQUIRE(run(0, count) == MPB_OK);
      REQUIRE(out == rows);
      // shape and pointer errors
      std::fill(out.begin(), out.end(), CANARY);
      REQUIRE(run(1, count) == MPB_ESHAPE);
      REQUIRE(run(count + 1, 0) == MPB_OK);  // empty: nothing checked
      REQUIRE(mpb_pack_cpython_list(out.data(), 0, &list, 0, 1, layout, &int_type_tag, threads, nullptr) == MPB_ERANGE);
      REQUIRE(mpb_pack_cpython_list(out.data(), width, &list, 0, 1, 2, &int_type_tag, threads, nullptr) == MPB_EVAL);
      REQUIRE(mpb_pack_cpython_list(nullptr, width, &list, 0, 1, layout, &int_type_tag, threads, nullptr) == MPB_ENULL);
      REQUIRE(mpb_pack_cpython_list(out.data(), width, nullptr, 0, 1, layout, &int_type_tag, threads, nullptr) == MPB_ENULL);
      REQUIRE(mpb_pack_cpython_list(out.data(), width, &list, 0, 1, layout, nullptr, threads, nullptr) == MPB_ENULL);
      items[3] = 0;  // a NULL item
      REQUIRE(run(0, 10) == MPB_ENULL);
      REQUIRE(info.bad_index == 3);
      REQUIRE(untouched());
    }
}

TEST_CASE("unpack_cpython_list / unpack_cpython_ints build the reference digits", "[batch][cpython]") {
  std::mt19937_64 g(23);
  for (int layout = 0; layout < 2; layout++)
    for (size_t width : WIDTHS) {
        size_t count = width >= 64 ? 600 : 4000 / width + 5;
        if (width == 1024) count = 40;
        auto rows = random_rows(g, count, width);
        Maker mk;
        mk.layout = layout;
        g_maker = &mk;
        std::vector<uintptr_t> items(count + 5, 0);
        FakeList list;
        list.size = (int64_t)items.size();
        list.items = items.data();
        mpb_call_info info;
        REQUIRE(mpb_unpack_cpython_list(&list, 2, rows.data(), width, count, (void *)cb_from_u64, (void *)cb_new_long,
                                        (void *)cb_set_item, &info) == MPB_OK);
        CAPTURE(layout, width, count);
        REQUIRE(info.threads == 1);
        REQUIRE(items[0] == 0);
        REQUIRE(items[1] == 0);
        REQUIRE(items[count + 2] == 0);
        for (size_t i = 0; i < count; i++) {
          auto want = ref_digits(&rows[i * width], width);
          REQUIRE(obj_digits(reinterpret_cast<unsigned char *>(items[i + 2]), layout) == want);
        }
        // the list-less form, index from 0
        std::vector<uintptr_t> items2(count, 0);
        FakeList list2;
        list2.size = (int64_t)count;
        list2.items = items2.data();
        REQUIRE(mpb_unpack_cpython_ints(&list2, rows.data(), width, count, (void *)cb_from_u64, (void *)cb_new_long,
                                        (void *)cb_set_item, nullptr) == MPB_OK);
        for (size_t i = 0; i < count; i++)
          REQUIRE(obj_digits(reinterpret_cast<unsigned char *>(items2[i]), layout) ==
                  ref_digits(&rows[i * width], width));
        g_maker = nullptr;
      }
}

TEST_CASE("unpack_cpython_list: a failed allocation leaves complete ints before it", "[batch][cpython]") {
  const size_t width = 8, count = 9000;
  std::mt19937_64 g(3);
  std::vector<u64> rows(count * width);
  for (auto &x : rows) x = g();
  {
    Maker mk;
    mk.fail_after = 5000;
    g_maker = &mk;
    std::vector<uintptr_t> items(count, 0);
    FakeList list;
    list.size = (int64_t)count;
    list.items = items.data();
    mpb_call_info info;
    REQUIRE(mpb_unpack_cpython_list(&list, 0, rows.data(), width, count, (void *)cb_from_u64, (void *)cb_new_long,
                                    (void *)cb_set_item, &info) == MPB_EMEM);
    REQUIRE(info.bad_index == 5000);
    for (size_t i = 0; i < 5000; i++)
      REQUIRE(obj_digits(reinterpret_cast<unsigned char *>(items[i]), 0) == ref_digits(&rows[i * width], width));
    for (size_t i = 5000; i < count; i++) REQUIRE(items[i] == 0);
    // set_item refusing (index beyond the list): MPB_EVAL
    mk.fail_after = -1;
    REQUIRE(mpb_unpack_cpython_list(&list, 1, rows.data(), width, count, (void *)cb_from_u64, (void *)cb_new_long,
                                    (void *)cb_set_item, &info) == MPB_EVAL);
    REQUIRE(info.bad_index == (int64_t)count - 1);
    g_maker = nullptr;
  }
  int dummy = 0;
  u64 row[2] = {1, 2};
  REQUIRE(mpb_unpack_cpython_list(&dummy, 0, row, 0, 1, &dummy, &dummy, &dummy, nullptr) == MPB_ERANGE);
  REQUIRE(mpb_unpack_cpython_list(nullptr, 0, row, 2, 1, &dummy, &dummy, &dummy, nullptr) == MPB_ENULL);
  REQUIRE(mpb_unpack_cpython_list(&dummy, 0, row, 2, 1, &dummy, nullptr, &dummy, nullptr) == MPB_ENULL);
  REQUIRE(mpb_unpack_cpython_list(&dummy, 0, row, 2, 0, nullptr, nullptr, nullptr, nullptr) == MPB_OK);
}
