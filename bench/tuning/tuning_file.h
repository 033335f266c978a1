// bench/tuning/tuning_file.h: reads and rewrites the library's tuning headers (cpu/<layer>/tuning.h,
// cuda/tuning.h), whose constants are one line each:
//     constexpr <type> NAME[[]] = <value>;  // <what it governs> | <where and when it was measured>
// `tune` rewrites the lines of the constants it measured (value and the part after '|') and
// leaves every other byte of the file as it was. Tested by tests/tuning/test_tuning_file.cpp.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace mpbench {
namespace tuning_file {

struct Constant {
  std::string name;   // NAME
  std::string value;  // the text between '=' and ';'
  std::string what;   // the comment before '|'
  std::string where;  // the comment after '|'
  size_t line = 0;    // 1-based line number
};

// Every one-line constant of a tuning header's text, in order.
std::vector<Constant> parse(const std::string &text);
// Names of the `constexpr` lines at the start of a line that are not in the one-line form.
std::vector<std::string> malformed(const std::string &text);

struct Update {
  std::string value;  // new value text
  std::string where;  // new "where and when" text
};
// Rewrites the lines of the named constants in `text`. Every name must be found in the one-line
// form; otherwise `text` is left untouched, *err says which, and false is returned.
bool rewrite(std::string &text, const std::map<std::string, Update> &updates, std::string *err);
// The same on a file: written only when rewrite() succeeded and something changed.
bool rewrite_file(const std::string &path, const std::map<std::string, Update> &updates, std::string *err);

} // namespace tuning_file
} // namespace mpbench
