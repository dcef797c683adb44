#include "dataset/transaction.h"

#include <algorithm>
#include <sstream>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "io/object_store.h"
#include "io/remote/uri.h"
#include "transaction.pb.h"

namespace lance::dataset {

namespace {

using Txn = ::lance::table::Transaction;

std::string plural(uint64_t n, const char* what) { return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s"); }

template <typename Frags>
uint64_t rows_of(const Frags& frags) {
  uint64_t n = 0;
  for (const auto& f : frags) n += f.physical_rows();
  return n;
}

/// Operation name and a short description of what it did (short: it is a table cell).
std::pair<std::string, std::string> describe(const Txn& t) {
  switch (t.operation_case()) {
    case Txn::kAppend:
      return {"Append", fmt::format("+{} rows", rows_of(t.append().fragments()))};
    case Txn::kDelete: {
      const auto& d = t.delete_();
      std::string s = d.predicate();
      if (d.deleted_fragment_ids_size())
        s += fmt::format(" ({} dropped)", plural(d.deleted_fragment_ids_size(), "fragment"));
      return {"Delete", s};
    }
    case Txn::kOverwrite:
      return {"Overwrite", fmt::format("{} rows", rows_of(t.overwrite().fragments()))};
    case Txn::kCreateIndex: {
      std::vector<std::string> names;
      for (const auto& ix : t.create_index().new_indices()) names.push_back(ix.name());
      std::string s = fmt::format("{}", fmt::join(names, ", "));
      if (t.create_index().removed_indices_size())
        s += fmt::format(" (replaces {})", t.create_index().removed_indices_size());
      return {"CreateIndex", s};
    }
    case Txn::kRewrite: {
      const auto& r = t.rewrite();
      uint64_t old_n = static_cast<uint64_t>(r.old_fragments_size()),
               new_n = static_cast<uint64_t>(r.new_fragments_size());
      for (const auto& g : r.groups()) {
        old_n += static_cast<uint64_t>(g.old_fragments_size());
        new_n += static_cast<uint64_t>(g.new_fragments_size());
      }
      return {"Rewrite", fmt::format("{} → {} fragments", old_n, new_n)};
    }
    case Txn::kMerge:
      return {"Merge", plural(t.merge().fragments_size(), "fragment")};
    case Txn::kRestore:
      return {"Restore", fmt::format("to v{}", t.restore().version())};
    case Txn::kReserveFragments:
      return {"ReserveFragments", plural(t.reserve_fragments().num_fragments(), "id")};
    case Txn::kUpdate: {
      const auto& u = t.update();
      return {"Update", fmt::format("{} rows written{}", rows_of(u.new_fragments()),
                                    u.update_mode() == 1 ? ", columns rewritten" : "")};
    }
    case Txn::kProject:
      return {"Project", ""};
    case Txn::kUpdateConfig:
      return {"UpdateConfig", ""};
    case Txn::kDataReplacement:
      return {"DataReplacement", ""};
    case Txn::kUpdateMemWalState:
      return {"UpdateMemWalState", ""};
    case Txn::kClone:
      return {"Clone", ""};
    case Txn::kUpdateBases:
      return {"UpdateBases", ""};
    case Txn::kDataOverlay:
      return {"DataOverlay", ""};
    case Txn::kAppendFriTransitions:
      return {"AppendFragmentReuseTransitions", ""};
    default:
      return {"Unknown", ""};
  }
}

}  // namespace

TransactionInfo parse_transaction(ByteView bytes, const std::string& name) {
  Txn t;
  if (!t.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    throw_corrupt("{}: cannot decode the transaction ({} bytes of protobuf)", name, bytes.size());
  TransactionInfo info;
  std::tie(info.operation, info.detail) = describe(t);
  info.read_version = t.read_version();
  info.uuid = t.uuid();
  return info;
}

std::optional<TransactionInfo> read_transaction(const std::string& dataset_dir, const ManifestFile& manifest,
                                                const io::ObjectStore& store) {
  const auto& m = manifest.proto;
  if (m.has_transaction_section()) {
    auto info = parse_transaction(manifest_section(manifest, m.transaction_section(), "transaction section"),
                                  manifest.path + ": transaction section");
    info.source = "manifest";
    return info;
  }
  if (m.transaction_file().empty()) return std::nullopt;
  const std::string& name = m.transaction_file();
  check_corrupt(name.find('/') == std::string::npos && name != "..",
                "{}: transaction file name '{}' is not a plain name", manifest.path, name);
  const std::string rel = io::join_path(std::string(kTransactionsDir), name);
  const std::string path = io::join_path(dataset_dir, rel);
  const Bytes bytes = store.read_all(path);
  auto info = parse_transaction(ByteView(bytes), path);
  info.source = rel;
  return info;
}

std::vector<Tag> list_tags(const std::string& dataset_dir, const io::ObjectStore& store) {
  const std::string dir = io::join_path(dataset_dir, std::string(kTagsDir));
  if (!store.is_directory(dir)) return {};
  std::vector<Tag> out;
  for (const io::ListEntry& e : store.list(dir)) {
    constexpr std::string_view kExt = ".json";
    if (e.is_dir || e.name.size() <= kExt.size() || !e.name.ends_with(kExt)) continue;
    const std::string path = io::join_path(dir, e.name);
    const Bytes data = store.read_all(path);
    try {
      const auto j = nlohmann::json::parse(data.begin(), data.end());
      check_corrupt(j.is_object() && j.contains("version") && j["version"].is_number_unsigned(),
                    "{}: a tag file holds {{\"version\": N, ...}}", io::display_location(path));
      Tag t;
      t.name = e.name.substr(0, e.name.size() - kExt.size());
      t.version = j["version"].get<uint64_t>();
      if (j.contains("branch") && j["branch"].is_string()) t.branch = j["branch"].get<std::string>();
      out.push_back(std::move(t));
    } catch (const nlohmann::json::exception& ex) {
      throw_corrupt("{}: not a tag file ({})", io::display_location(path), ex.what());
    }
  }
  std::sort(out.begin(), out.end(), [](const Tag& a, const Tag& b) { return a.name < b.name; });
  return out;
}

}  // namespace lance::dataset
