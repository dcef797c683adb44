// Writes seed corpora for the fuzz targets from real Lance files:
//   extract_seeds OUT_DIR FILE…
// creates OUT_DIR/<target>/<file>-c<col>-p<page>[...] inputs in the formats the targets
// read (see each fuzz_*.cpp) from data files (.lance), and from the files of a dataset:
// manifests (fuzz_manifest; their index and transaction sections: fuzz_index_meta,
// fuzz_transaction), transaction files (.txn) and deletion files (.arrow, .bin:
// fuzz_deletion). Used by scripts/fuzz.sh.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "dataset/manifest_file.h"
#include "encoding/v2_0/array_decoder.h"
#include "format/file_reader.h"
#include "fuzz_input.h"

using namespace lance;
namespace fs = std::filesystem;

namespace {

constexpr uint64_t kMaxBuffer = 16 * 1024;  // keep seeds small: the fuzzer is faster on them

template <typename T>
void put(Bytes& b, T v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  b.insert(b.end(), p, p + sizeof(T));
}

void write(const fs::path& p, const Bytes& b) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), b.size());
}

uint8_t type_selector(const TypePtr& t) {
  switch (t ? t->id : TypeId::null) {
    case TypeId::int8:
      return 0;
    case TypeId::int16:
      return 1;
    case TypeId::int32:
    case TypeId::date32:
    case TypeId::time32:
      return 2;
    case TypeId::int64:
    case TypeId::timestamp:
    case TypeId::date64:
    case TypeId::time64:
    case TypeId::duration:
      return 3;
    case TypeId::uint8:
      return 4;
    case TypeId::uint16:
      return 5;
    case TypeId::uint32:
      return 6;
    case TypeId::uint64:
      return 7;
    case TypeId::float32:
      return 8;
    case TypeId::float64:
      return 9;
    case TypeId::boolean:
      return 10;
    case TypeId::utf8:
      return 11;
    case TypeId::large_utf8:
      return 12;
    case TypeId::binary:
      return 13;
    case TypeId::large_binary:
      return 14;
    case TypeId::float16:
      return 15;
    case TypeId::fixed_size_binary:
      return 16 + (t->byte_width == 2 ? 1 : t->byte_width == 4 ? 2 : t->byte_width >= 8 ? 3 : 0);
    default:
      return 3;
  }
}

/// Every CompressiveEncoding in a layout, with a label.
void collect(const encodings21::CompressiveEncoding& e, std::vector<const encodings21::CompressiveEncoding*>& out) {
  if (e.compression_case() != encodings21::CompressiveEncoding::COMPRESSION_NOT_SET) out.push_back(&e);
}

/// Seeds from one file of a dataset directory; false when `path` is not one.
bool dataset_seeds(const fs::path& out, const fs::path& path, int& n) {
  const std::string ext = path.extension().string();
  if (ext != ".manifest" && ext != ".txn" && ext != ".arrow" && ext != ".bin") return false;
  // <dataset>-<file>: file names repeat across datasets (every one has a version 1).
  const std::string name = path.parent_path().parent_path().filename().string() + "-" + path.filename().string();
  std::ifstream in(path, std::ios::binary);
  Bytes whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (ext == ".manifest") {
    write(out / "fuzz_manifest" / name, whole), ++n;
    try {
      const dataset::ManifestFile mf = dataset::read_manifest_file(path.string(), io::local_store());
      if (mf.proto.has_index_section()) {
        ByteView s = dataset::manifest_section(mf, mf.proto.index_section(), "index section");
        write(out / "fuzz_index_meta" / name, Bytes(s.data(), s.data() + s.size())), ++n;
      }
      if (mf.proto.has_transaction_section()) {
        ByteView s = dataset::manifest_section(mf, mf.proto.transaction_section(), "transaction section");
        write(out / "fuzz_transaction" / name, Bytes(s.data(), s.data() + s.size())), ++n;
      }
    } catch (const Error& e) {
      std::cerr << path.string() << ": " << e.what() << "\n";
    }
  } else if (ext == ".txn") {
    write(out / "fuzz_transaction" / name, whole), ++n;
  } else {
    // [u8 kind][u32 physical rows]: rows from the file name cannot be known; 2^20 holds any fixture's.
    Bytes s;
    put<uint8_t>(s, ext == ".bin" ? 1 : 0);
    put<uint32_t>(s, 1u << 20);
    s.insert(s.end(), whole.begin(), whole.end());
    write(out / "fuzz_deletion" / name, s), ++n;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: extract_seeds OUT_DIR FILE...\n";
    return 2;
  }
  fs::path out(argv[1]);
  int n = 0;
  for (int a = 2; a < argc; ++a) {
    fs::path path(argv[a]);
    std::string stem = path.stem().string();
    if (dataset_seeds(out, path, n)) continue;
    try {
      auto file = format::FileReader::open(path.string());
      std::ifstream in(path, std::ios::binary);
      Bytes whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (whole.size() <= 64 * 1024) write(out / "fuzz_file" / stem, whole), ++n;
      // Leaf types by column (2.1+: structural leaves in order).
      std::vector<TypePtr> leaf_types(file->columns().size());
      for (size_t f = 0; f < file->schema().fields.size(); ++f) {
        std::vector<const format::LanceField*> leaves;
        format::structural_leaves(file->schema().fields[f], leaves);
        const auto& cols = file->field_columns()[f];
        for (size_t i = 0; i < cols.size() && i < leaves.size(); ++i)
          leaf_types[cols[i]] = leaves[i]->arrow ? leaves[i]->arrow->type : nullptr;
      }
      for (const auto& col : file->columns()) {
        for (size_t p = 0; p < col.pages.size() && p < 4; ++p) {
          const auto& page = col.pages[p];
          std::vector<Bytes> bufs;
          for (const auto& r : page.buffers) {
            Bytes b(std::min(r.length, kMaxBuffer));
            if (!b.empty()) file->io().file().read_at(r.offset, b.size(), b.data());
            bufs.push_back(std::move(b));
          }
          std::string name = fmt::format("{}-c{}-p{}", stem, col.index, p);
          auto sized_bufs = [&](Bytes& s) {
            put<uint8_t>(s, static_cast<uint8_t>(bufs.size()));
            for (const auto& b : bufs) put<uint32_t>(s, static_cast<uint32_t>(b.size()));
            for (const auto& b : bufs) s.insert(s.end(), b.begin(), b.end());
          };
          if (page.layout) {
            std::string l = page.layout->SerializeAsString();
            Bytes s;
            put<uint16_t>(s, static_cast<uint16_t>(l.size()));
            s.insert(s.end(), l.begin(), l.end());
            put<uint8_t>(s, type_selector(leaf_types[col.index]));
            put<uint8_t>(s, static_cast<uint8_t>(file->version().minor - 1));
            put<uint32_t>(s, static_cast<uint32_t>(std::min<uint64_t>(page.num_rows, 1u << 20)));
            sized_bufs(s);
            write(out / "fuzz_page_layout" / name, s), ++n;
            // Encoding trees of the layout, over the page's first buffers.
            std::vector<const encodings21::CompressiveEncoding*> encs;
            if (page.layout->has_mini_block_layout()) {
              const auto& m = page.layout->mini_block_layout();
              collect(m.value_compression(), encs);
              collect(m.rep_compression(), encs);
              collect(m.def_compression(), encs);
              collect(m.dictionary(), encs);
            } else if (page.layout->has_full_zip_layout()) {
              collect(page.layout->full_zip_layout().value_compression(), encs);
            }
            for (size_t e = 0; e < encs.size() && col.index < 4 && p == 0; ++e) {
              std::string es = encs[e]->SerializeAsString();
              for (uint8_t ctx = 0; ctx < 5; ++ctx) {
                Bytes t;
                put<uint16_t>(t, static_cast<uint16_t>(es.size()));
                t.insert(t.end(), es.begin(), es.end());
                put<uint8_t>(t, ctx);
                put<uint32_t>(t, static_cast<uint32_t>(std::min<uint64_t>(page.num_rows, 1u << 18)));
                put<uint8_t>(t, static_cast<uint8_t>(std::min<size_t>(bufs.size(), 7)));
                for (size_t i = 0; i < bufs.size() && i < 7; ++i)
                  put<uint16_t>(t, static_cast<uint16_t>(std::min<size_t>(bufs[i].size(), 4096)));
                for (size_t i = 0; i < bufs.size() && i < 7; ++i)
                  t.insert(t.end(), bufs[i].begin(), bufs[i].begin() + std::min<size_t>(bufs[i].size(), 4096));
                write(out / "fuzz_encoding_tree" / fmt::format("{}-e{}-x{}", name, e, ctx), t), ++n;
              }
            }
          } else if (page.array_encoding) {
            std::string l = page.array_encoding->SerializeAsString();
            Bytes s;
            put<uint16_t>(s, static_cast<uint16_t>(l.size()));
            s.insert(s.end(), l.begin(), l.end());
            const auto* fld = [&]() -> const format::LanceField* {
              for (size_t f = 0; f < file->field_columns().size(); ++f)
                if (!file->field_columns()[f].empty() && file->field_columns()[f][0] == col.index)
                  return &file->schema().fields[f];
              return nullptr;
            }();
            put<uint8_t>(s, type_selector(fld && fld->arrow ? fld->arrow->type : nullptr));
            put<uint32_t>(s, static_cast<uint32_t>(std::min<uint64_t>(page.num_rows, 1u << 18)));
            sized_bufs(s);
            write(out / "fuzz_v2_0" / name, s), ++n;
          }
          // Raw kernels: each decoder selector over this page's first buffer.
          if (!bufs.empty() && p == 0 && col.index < 4) {
            for (uint8_t which = 0; which < 10; ++which) {
              Bytes r;
              put<uint8_t>(r, which);
              put<uint8_t>(r, 2);
              put<uint8_t>(r, 0);
              put<uint32_t>(r, static_cast<uint32_t>(std::min<uint64_t>(page.num_rows, 1u << 18)));
              put<uint16_t>(r, static_cast<uint16_t>(bufs[0].size() / 2));
              r.insert(r.end(), bufs[0].begin(), bufs[0].begin() + std::min<size_t>(bufs[0].size(), 4096));
              write(out / "fuzz_compressive" / fmt::format("{}-k{}", name, which), r), ++n;
            }
          }
        }
      }
    } catch (const std::exception& e) {
      std::cerr << path << ": " << e.what() << "\n";
    }
  }
  std::cerr << "wrote " << n << " seeds to " << out << "\n";
  return 0;
}
