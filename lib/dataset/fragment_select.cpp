#include "dataset/fragment_select.h"

#include <algorithm>
#include <charconv>

#include "common/error.h"
#include "dataset/dataset.h"

namespace lance::dataset {

namespace {

std::string_view trim(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<IdRange> parse_id_ranges(std::string_view text, std::string_view option) {
  auto number = [&](std::string_view s) {
    s = trim(s);
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size())
      throw_usage("bad fragment id '{}' in {} (expected e.g. 0,3,5-9)", s, option);
    return v;
  };
  std::vector<IdRange> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t sep = text.find_first_of(",\n", pos);
    const std::string_view item =
        trim(text.substr(pos, sep == std::string_view::npos ? std::string_view::npos : sep - pos));
    if (!item.empty()) {
      const size_t dash = item.find('-');
      if (dash == std::string_view::npos) {
        const uint64_t id = number(item);
        out.push_back({id, id});
      } else {
        if (dash == 0) throw_usage("bad fragment id '{}' in {} (fragment ids are not negative)", item, option);
        const uint64_t a = number(item.substr(0, dash)), b = number(item.substr(dash + 1));
        if (b < a) throw_usage("bad fragment range '{}' in {} (end before start)", item, option);
        out.push_back({a, b});
      }
    }
    if (sep == std::string_view::npos) break;
    pos = sep + 1;
  }
  if (out.empty()) throw_usage("{} needs at least one fragment id (e.g. 0,3,5-9)", option);
  return out;
}

std::string format_ids(std::span<const uint64_t> ids) {
  std::string s;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!s.empty()) s += ',';
    s += std::to_string(ids[i]);
    if (j > i) s += (j == i + 1 ? "," : "-") + std::to_string(ids[j]);
    i = j + 1;
  }
  return s;
}

std::shared_ptr<const Dataset> Dataset::select_fragments(std::span<const IdRange> ranges) const {
  std::vector<uint64_t> have;
  have.reserve(manifest_.fragments.size());
  for (const auto& f : manifest_.fragments) have.push_back(f.id);
  std::sort(have.begin(), have.end());
  // Every id of every range must exist: walk the sorted ids inside the range (no expansion).
  for (const IdRange& r : ranges) {
    auto it = std::lower_bound(have.begin(), have.end(), r.first);
    uint64_t want = r.first;
    for (; it != have.end() && *it == want && want < r.last; ++it) ++want;
    const bool complete = it != have.end() && *it == want;  // want == r.last here when complete
    if (!complete)
      throw_usage("{} version {} has no fragment {}; its fragments are {}", dir_, manifest_.version, want,
                  have.empty() ? std::string("(none)") : format_ids(have));
  }
  auto chosen = [&](uint64_t id) {
    return std::any_of(ranges.begin(), ranges.end(), [&](const IdRange& r) { return r.first <= id && id <= r.last; });
  };
  auto out = std::shared_ptr<Dataset>(new Dataset(*this));
  out->manifest_.fragments.clear();
  out->live_rows_.clear();
  out->num_rows_ = 0;
  for (size_t i = 0; i < manifest_.fragments.size(); ++i) {
    if (!chosen(manifest_.fragments[i].id)) continue;
    out->manifest_.fragments.push_back(manifest_.fragments[i]);
    out->live_rows_.push_back(live_rows_[i]);
    out->num_rows_ += live_rows_[i];
  }
  return out;
}

}  // namespace lance::dataset
