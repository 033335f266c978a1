#include "common/report.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

namespace mpbench {

std::string machine() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  return model + ", " + std::to_string(std::thread::hardware_concurrency()) + " logical cores";
}

std::string today() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

std::string commit() {
  // A copy of the tree without .git (the GPU machine's) names its commit in MPB_COMMIT.
  if (const char *env = std::getenv("MPB_COMMIT"))
    if (*env) return env;
  std::string cmd = "git -C " MPB_SOURCE_DIR " rev-parse --short HEAD 2>/dev/null";
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return "unknown";
  char buf[64] = {0};
  std::string s = fgets(buf, sizeof buf, p) ? buf : "unknown";
  pclose(p);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  FILE *d = popen("git -C " MPB_SOURCE_DIR " status --porcelain --untracked-files=no 2>/dev/null | head -1", "r");
  if (d) {
    char b2[8] = {0};
    if (fgets(b2, sizeof b2, d) && b2[0]) s += "+dirty";
    pclose(d);
  }
  return s;
}

std::string fmt(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

Report::Report(std::string name, std::string dir) : name_(std::move(name)), dir_(std::move(dir)) {}
void Report::columns(std::vector<std::string> cols) { cols_ = std::move(cols); }
void Report::row(std::vector<std::string> cells) {
  std::cout << name_ << ":";
  for (size_t i = 0; i < cells.size(); i++) std::cout << (i ? " | " : " ") << cells[i];
  std::cout << std::endl;
  rows_.push_back(std::move(cells));
}
void Report::note(std::string text) { notes_.push_back(std::move(text)); }

void Report::finish() {
  std::string base = dir_ + "/" + name_ + "-" + today();
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);  // (a directory named on the command line may not exist yet)
  std::string header = "machine: " + machine() + "; date: " + today() + "; commit: " + commit();
  std::ofstream csv(base + ".csv");
  csv << "# " << header << "\n";
  for (size_t i = 0; i < cols_.size(); i++) csv << (i ? "," : "") << cols_[i];
  csv << "\n";
  for (auto &r : rows_) {
    for (size_t i = 0; i < r.size(); i++) csv << (i ? "," : "") << r[i];
    csv << "\n";
  }
  std::ostringstream md;
  md << "# " << name_ << "\n\n" << header << "\n\n|";
  for (auto &c : cols_) md << " " << c << " |";
  md << "\n|";
  for (size_t i = 0; i < cols_.size(); i++) md << "---|";
  md << "\n";
  for (auto &r : rows_) {
    md << "|";
    for (auto &c : r) md << " " << c << " |";
    md << "\n";
  }
  if (!notes_.empty()) md << "\n";
  for (auto &n : notes_) md << "- " << n << "\n";
  std::ofstream mdf(base + ".md");
  mdf << md.str();
  csv.flush(), mdf.flush();
  std::cout << "\n" << md.str() << std::endl;
  if (csv && mdf)
    std::cout << "wrote " << base << ".csv and .md" << std::endl;
  else
    std::cerr << "could not write " << base << ".csv / .md (" << (ec ? ec.message() : "write failed") << ")" << std::endl;
}

} // namespace mpbench
