// bench/tuning/tuning_file.cpp: see tuning_file.h.
#include "tuning/tuning_file.h"

#include <fstream>
#include <regex>
#include <sstream>

namespace mpbench {
namespace tuning_file {

namespace {
// constexpr <type> NAME[[]] = <value>;  // <what> | <where>
const std::regex &one_line() {
  static const std::regex re(
      R"(^(constexpr\s+[A-Za-z_][\w ]*?\s+)([A-Z][A-Z0-9_]*)((?:\[\])?\s*=\s*)(.*?)(;\s*//\s*)(.*?)(\s+\|\s+)(.*?)\s*$)");
  return re;
}

std::vector<std::string> split_lines(const std::string &text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::string join_lines(const std::vector<std::string> &lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); i++) {
    if (i) out += '\n';
    out += lines[i];
  }
  return out;
}
} // namespace

std::vector<Constant> parse(const std::string &text) {
  std::vector<Constant> out;
  const auto lines = split_lines(text);
  for (size_t i = 0; i < lines.size(); i++) {
    std::smatch m;
    if (!std::regex_match(lines[i], m, one_line())) continue;
    out.push_back({m[2].str(), m[4].str(), m[6].str(), m[8].str(), i + 1});
  }
  return out;
}

std::vector<std::string> malformed(const std::string &text) {
  static const std::regex constant(R"(^constexpr\s+[A-Za-z_][\w ]*?\s+([A-Z][A-Z0-9_]*)\b.*$)");
  std::vector<std::string> out;
  for (const auto &line : split_lines(text)) {
    std::smatch m;
    if (std::regex_match(line, m, constant) && !std::regex_match(line, one_line())) out.push_back(m[1].str());
  }
  return out;
}

bool rewrite(std::string &text, const std::map<std::string, Update> &updates, std::string *err) {
  auto lines = split_lines(text);
  std::map<std::string, bool> done;
  for (auto &line : lines) {
    std::smatch m;
    if (!std::regex_match(line, m, one_line())) continue;
    auto it = updates.find(m[2].str());
    if (it == updates.end()) continue;
    line = m[1].str() + m[2].str() + m[3].str() + it->second.value + m[5].str() + m[6].str() + m[7].str() +
           it->second.where;
    done[it->first] = true;
  }
  for (const auto &u : updates)
    if (!done[u.first]) {
      if (err) *err = "no one-line constant " + u.first;
      return false;
    }
  text = join_lines(lines);
  return true;
}

bool rewrite_file(const std::string &path, const std::map<std::string, Update> &updates, std::string *err) {
  std::ifstream in(path);
  if (!in) {
    if (err) *err = "cannot read " + path;
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string before = ss.str();
  std::string text = before;
  if (!rewrite(text, updates, err)) return false;
  if (text == before) return true;
  std::ofstream out(path, std::ios::trunc);
  if (!(out << text)) {
    if (err) *err = "cannot write " + path;
    return false;
  }
  return true;
}

} // namespace tuning_file
} // namespace mpbench
