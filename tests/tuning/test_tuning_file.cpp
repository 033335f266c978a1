// The tuning headers and their writer (bench/tuning/tuning_file.cpp, what `tune` rewrites them
// with): every constant of every tuning header is one line with what it governs and where and
// when it was measured; rewriting a header with its own values gives the same bytes; rewriting
// one constant changes exactly its line; a missing constant leaves the file untouched.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "tuning/tuning_file.h"

using namespace mpbench::tuning_file;

namespace {
const char *const kHeaders[] = {"cpu/mpn/tuning.h", "cpu/gf2x/tuning.h", "cpu/multipartite/tuning.h",
                                "cpu/batch/tuning.h", "cpu/bindings/tuning.h", "cuda/tuning.h"};

std::string read(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
std::string source(const char *rel) { return read(std::string(MPB_SOURCE_DIR) + "/" + rel); }
} // namespace

TEST_CASE("every tuning constant is one line: value, what, where and when", "[tuning]") {
  size_t total = 0;
  for (const char *h : kHeaders) {
    const std::string text = source(h);
    INFO(h);
    REQUIRE(!text.empty());
    CHECK(malformed(text).empty());
    for (const Constant &c : parse(text)) {
      INFO(c.name);
      CHECK(!c.value.empty());
      CHECK(!c.what.empty());
      CHECK(c.where.size() >= 10);  // a machine and date, a command, or NOT MEASURED with why
      total++;
    }
  }
  CHECK(total >= 50);
}

TEST_CASE("rewriting a tuning header with its own values gives the same bytes", "[tuning]") {
  for (const char *h : kHeaders) {
    const std::string text = source(h);
    std::map<std::string, Update> same;
    for (const Constant &c : parse(text)) same[c.name] = {c.value, c.where};
    std::string copy = text, err;
    INFO(h);
    REQUIRE(rewrite(copy, same, &err));
    CHECK(copy == text);
  }
}

TEST_CASE("rewriting one constant changes exactly its line", "[tuning]") {
  const std::string text = source("cpu/mpn/tuning.h");
  std::string copy = text, err;
  REQUIRE(rewrite(copy, {{"MUL_KARATSUBA_CUTOFF", {"99", "test machine, 2099-01-01, tune --int (abc1234)"}}}, &err));
  const auto a = parse(text), b = parse(copy);
  REQUIRE(a.size() == b.size());
  size_t changed = 0;
  for (size_t i = 0; i < a.size(); i++) {
    if (a[i].name != "MUL_KARATSUBA_CUTOFF") {
      CHECK(a[i].value == b[i].value);
      CHECK(a[i].where == b[i].where);
      continue;
    }
    changed++;
    CHECK(b[i].value == "99");
    CHECK(b[i].what == a[i].what);
    CHECK(b[i].where == "test machine, 2099-01-01, tune --int (abc1234)");
  }
  CHECK(changed == 1);
  // the rest of the text is identical: only that line differs
  size_t diff_lines = 0;
  std::istringstream x(text), y(copy);
  for (std::string l1, l2; std::getline(x, l1) && std::getline(y, l2);) diff_lines += l1 != l2;
  CHECK(diff_lines == 1);
}

TEST_CASE("a missing constant refuses the rewrite and leaves the file untouched", "[tuning]") {
  const std::string tmp = std::string(MPB_BINARY_DIR) + "/tuning_file_test.h";
  const std::string text = source("cpu/batch/tuning.h");
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
  }
  std::string err;
  CHECK_FALSE(rewrite_file(tmp, {{"BATCH_PARALLEL_MIN_WORK", {"1.0", "x, 2099-01-01"}},
                                 {"NO_SUCH_CONSTANT", {"1", "x, 2099-01-01"}}},
                           &err));
  CHECK(err.find("NO_SUCH_CONSTANT") != std::string::npos);
  CHECK(read(tmp) == text);
  REQUIRE(rewrite_file(tmp, {{"BATCH_PARALLEL_MIN_WORK", {"12345.0", "x, 2099-01-01"}}}, &err));
  CHECK(read(tmp) != text);
  bool found = false;
  for (const Constant &c : parse(read(tmp)))
    if (c.name == "BATCH_PARALLEL_MIN_WORK") found = c.value == "12345.0";
  CHECK(found);
  std::remove(tmp.c_str());
}
