// bench/common/report.h: every benchmark writes its table the same way: CSV + markdown with the
// machine, date and commit, and prints the markdown to stdout.
#pragma once
#include <string>
#include <vector>

namespace mpbench {

std::string machine();       // CPU model name and core count
std::string today();         // YYYY-MM-DD (UTC)
std::string commit();        // short git commit of the source tree (or "unknown")
std::string fmt(double v, int decimals);

class Report {
 public:
  // Writes <dir>/<name>-<date>.csv and .md on finish().
  Report(std::string name, std::string dir);
  void columns(std::vector<std::string> cols);
  void row(std::vector<std::string> cells);
  void note(std::string text);
  void finish();
 private:
  std::string name_, dir_;
  std::vector<std::string> cols_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<std::string> notes_;
};

} // namespace mpbench
