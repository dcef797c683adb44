// `search`: LanceDB's answers (data/vectors/goldens.json, scripts/gen-vectors.mjs) for exact
// search on every vector type and metric, prefilters and postfilters, projections, and what
// LanceDB rejects; the distance kernels and the top-k heap.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_env.h"
#include "cli_runner.h"
#include "fixtures.h"
#include "index/distance.h"
#include "index/top_k.h"
#include "vector_goldens.h"

using namespace lance::testing;  // NOLINT: the test helpers
using lance::index::Kernel;
using lance::index::Metric;
using Json = nlohmann::json;

namespace {

bool on_plain(const Json& c) { return c.at("table") == "plain"; }

}  // namespace

TEST_CASE("search: exact search gives LanceDB's rows and distances", "[search][golden]") {
  size_t checked = 0;
  for (const auto& c : vector_goldens().at("cases")) {
    if (!on_plain(c) || c.contains("error") || c.contains("jsonl")) continue;
    INFO(c.at("name").get<std::string>() << "\n" << c.at("call").get<std::string>());
    auto r = run_cli(search_args(c, true));
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(compare_with_lance(c, parse_search_rows(r.out)) == "");
    ++checked;
  }
  CHECK(checked > 150);
}

TEST_CASE("search: projections, _distance and _rowid are LanceDB's rows exactly", "[search][golden]") {
  size_t checked = 0;
  for (const auto& c : vector_goldens().at("cases")) {
    if (!c.contains("jsonl")) continue;
    INFO(c.at("name").get<std::string>() << "\n" << c.at("call").get<std::string>());
    auto r = run_cli(search_args(c, false));
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    // Every column as LanceDB renders it, in its order; _distance within float rounding.
    const auto got = lines(r.out);
    const auto want = lines(read_text(source_path("data/vectors/" + c.at("jsonl").get<std::string>())));
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      auto g = nlohmann::ordered_json::parse(got[i]);
      auto w = nlohmann::ordered_json::parse(want[i]);
      CHECK(std::fabs(g.at("_distance").get<double>() - w.at("_distance").get<double>()) <=
            1e-4 * std::fabs(w.at("_distance").get<double>()));
      g["_distance"] = 0;
      w["_distance"] = 0;
      CHECK(g.dump() == w.dump());
    }
    ++checked;
  }
  CHECK(checked >= 6);
}

TEST_CASE("search: what LanceDB rejects is a usage error", "[search][golden]") {
  size_t checked = 0;
  for (const auto& c : vector_goldens().at("cases")) {
    if (!c.contains("error")) continue;
    INFO(c.at("name").get<std::string>() << ": LanceDB says " << c.at("error").get<std::string>());
    auto r = run_cli(search_args(c, true));
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    ++checked;
  }
  CHECK(checked >= 5);
}

TEST_CASE("search: query input as JSON lines and raw float32, several queries", "[search]") {
  const std::string table = source_path("data/vectors/plain");
  const Json& q = vector_goldens().at("queries").at("vec");
  std::string lines;
  std::string raw;
  for (size_t i = 0; i < 2; ++i) {
    lines += q.at(i).at("vector").dump() + "\n";
    for (const auto& v : q.at(i).at("vector")) {
      const auto f = v.get<float>();
      raw.append(reinterpret_cast<const char*>(&f), 4);
    }
  }
  const TempDir dir("search-queries");
  write_file(dir.file("q.jsonl"), lines);
  write_file(dir.file("q.f32"), raw);
  auto a = run_cli({"search", table, "--column", "vec", "--vector-file", "-", "-k", "3", "-c", "id"}, lines);
  REQUIRE(a.exit_code == 0);
  auto b = run_cli({"search", table, "--column", "vec", "--vector-file", dir.file("q.f32"), "--vector-format", "f32",
                    "-k", "3", "-c", "id"});
  REQUIRE(b.exit_code == 0);
  CHECK(a.out == b.out);
  CHECK(std::count(a.out.begin(), a.out.end(), '\n') == 6);
  CHECK(a.out.rfind("{\"query_index\":0,\"id\":", 0) == 0);
  CHECK(a.out.find("{\"query_index\":1,") != std::string::npos);
  auto bad =
      run_cli({"search", table, "--column", "vec", "--vector-file", dir.file("q.jsonl"), "--vector-format", "f32"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("float32 vectors") != std::string::npos);
  auto none = run_cli({"search", table, "--column", "vec"});
  CHECK(none.exit_code == 2);
}

TEST_CASE("distance kernels: every instruction set gives the portable path's bits", "[search][kernels]") {
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> u(-2, 2);
  for (size_t dim : {1, 3, 8, 15, 16, 17, 31, 33, 100, 384}) {
    const size_t n = 9;
    std::vector<float> q(dim), v(n * dim);
    for (auto& x : q) x = u(gen);
    for (auto& x : v) x = u(gen);
    for (Metric m : {Metric::l2, Metric::cosine, Metric::dot}) {
      std::vector<float> base(n);
      lance::index::distances(m, q.data(), v.data(), n, dim, base.data(), Kernel::portable);
      for (Kernel k : {Kernel::avx2, Kernel::avx512}) {
        std::vector<float> got(n);
        lance::index::distances(m, q.data(), v.data(), n, dim, got.data(), k);
        INFO("dim " << dim << " " << lance::index::metric_name(m) << " " << lance::index::kernel_name(k));
        for (size_t i = 0; i < n; ++i) CHECK(std::memcmp(&got[i], &base[i], 4) == 0);
      }
      // And near the textbook value, summed in double.
      for (size_t r = 0; r < n; ++r) {
        double l2 = 0, dot = 0, qq = 0, xx = 0;
        for (size_t i = 0; i < dim; ++i) {
          const double a = q[i], b = v[r * dim + i];
          l2 += (a - b) * (a - b);
          dot += a * b;
          qq += a * a;
          xx += b * b;
        }
        const double want = m == Metric::l2 ? l2 : m == Metric::dot ? 1 - dot : 1 - dot / std::sqrt(qq * xx);
        CHECK(std::fabs(base[r] - want) <= 1e-4 * std::max(1.0, std::fabs(want)));
      }
    }
  }
}

TEST_CASE("PQ distance tables: every instruction set gives the portable path's bits", "[search][kernels]") {
  std::mt19937 gen(11);
  std::uniform_real_distribution<float> u(-3, 3);
  const auto runs = [](Kernel k) {
    const Kernel best = lance::index::best_kernel();
    return k == Kernel::portable || best == Kernel::avx512 || (k == Kernel::avx2 && best == Kernel::avx2);
  };
  for (size_t n : {1, 7, 8, 9, 15, 16, 17, 33, 256}) {
    std::vector<float> column(n), start(n);
    for (auto& x : column) x = u(gen);
    for (auto& x : start) x = u(gen);
    const float r = u(gen);
    for (bool product : {false, true}) {
      std::vector<float> base = start;
      lance::index::add_pq_column(product, r, column.data(), n, base.data(), Kernel::portable);
      for (size_t k = 0; k < n; ++k) {
        const float want = product ? start[k] + r * column[k] : start[k] + (r - column[k]) * (r - column[k]);
        CHECK(std::fabs(base[k] - want) <= 1e-5f * std::max(1.0f, std::fabs(want)));
      }
      for (Kernel kernel : {Kernel::avx2, Kernel::avx512}) {
        if (!runs(kernel)) continue;
        std::vector<float> got = start;
        lance::index::add_pq_column(product, r, column.data(), n, got.data(), kernel);
        INFO("n " << n << " product " << product << " " << lance::index::kernel_name(kernel));
        CHECK(std::memcmp(got.data(), base.data(), n * sizeof(float)) == 0);
      }
    }
  }
}

TEST_CASE("top-k: the k nearest in order, ties by row, NaN last", "[search][kernels]") {
  lance::index::TopK best(3);
  for (uint64_t r = 0; r < 10; ++r) best.push(static_cast<float>((r * 7) % 10), r);
  best.push(NAN, 99);
  best.push(0, 20);
  const auto got = best.sorted();
  REQUIRE(got.size() == 3);
  CHECK(got[0].row == 0);
  CHECK(got[1].row == 20);
  CHECK(got[2].distance == 1);
  lance::index::TopK none(0);
  none.push(1, 1);
  CHECK(none.sorted().empty());
}

TEST_CASE("search: through each vector index, LanceDB's rows and distances", "[search][golden][index]") {
  // Every kind lance-cli reads with every metric (indexed, indexed_more; indexed_full: the
  // index covers every fragment, so its approximate distances are reported), with nprobes, refine, ef, prefilter,
  // postfilter, fast search, a metric other than the index's (exact then), over indexed fragments, an unindexed tail
  // and deleted rows. Lance's answers come from the committed index files, so they are
  // reproduced exactly: the same rows in the same order, the same (approximate or exact)
  // distances.
  size_t checked = 0;
  double overlap = 0;
  for (const auto& c : vector_goldens().at("cases")) {
    if (on_plain(c) || c.contains("error") || c.at("column") == "v_rq" || !vector_table_selected(c.at("table")))
      continue;
    INFO(c.at("name").get<std::string>() << "\n" << c.at("call").get<std::string>());
    auto r = run_cli(search_args(c, true));
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const SearchRows got = parse_search_rows(r.out);
    CHECK(compare_with_lance(c, got) == "");
    const auto want = c.at("ids").get<std::vector<int64_t>>();
    size_t common = 0;
    for (const int64_t id : got.ids) common += std::count(want.begin(), want.end(), id) ? 1 : 0;
    overlap += want.empty() ? 1.0 : static_cast<double>(common) / static_cast<double>(want.size());
    ++checked;
  }
  CHECK(checked > (vector_table_selected("indexed_more") ? 850 : 250));
  CHECK(overlap / static_cast<double>(checked) >= 0.98);
}

TEST_CASE("search: an index kind lance-cli does not read is exit 3 naming it, and --exact still works",
          "[search][index]") {
  const std::string table = source_path("data/vectors/indexed");
  const std::string q = vector_goldens().at("queries").at("v_rq").at(0).at("vector").dump();
  auto r = run_cli({"search", table, "--column", "v_rq", "--vector", q});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("IVF_RQ") != std::string::npos);
  CHECK(r.err.find("v_rq_idx") != std::string::npos);
  auto e = run_cli({"search", table, "--column", "v_rq", "--vector", q, "--exact", "--metric", "dot", "-c", "id"});
  CHECK(e.exit_code == 0);
  CHECK(std::count(e.out.begin(), e.out.end(), '\n') == 10);
}

TEST_CASE("search: a damaged vector index is a corrupt-file error naming it", "[search][index][corrupt]") {
  namespace fs = std::filesystem;
  TempDir dir("damaged-vector-index");
  const fs::path ds = dir.path() / "t";
  fs::copy(source_path("data/vectors/indexed"), ds, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(ds / "_indices"))
    if (entry.is_regular_file() && entry.path().filename() == "auxiliary.idx")
      fs::resize_file(entry.path(), fs::file_size(entry.path()) * 2 / 3);
  for (const char* column : {"v_pq", "v_flat", "v_hnsw_pq", "v_hnsw_sq"}) {
    INFO(column);
    const std::string q = vector_goldens().at("queries").at(column).at(0).at("vector").dump();
    auto r = run_cli({"search", ds.string(), "--column", column, "--vector", q, "-c", "id"});
    CHECK(r.exit_code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find(std::string("index '") + column + "_idx'") != std::string::npos);
    auto e = run_cli({"search", ds.string(), "--column", column, "--vector", q, "--exact", "-c", "id"});
    CHECK(e.exit_code == 0);
  }
}

TEST_CASE("search: --recall reports the indexed search's recall@k", "[search][index]") {
  const std::string table = source_path("data/vectors/indexed");
  const std::string q = vector_goldens().at("queries").at("v_hnsw_pq").at(3).at("vector").dump();
  auto r = run_cli({"search", table, "--column", "v_hnsw_pq", "--vector", q, "--recall", "-f", "null"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.rfind("recall@10: ", 0) == 0);
  auto j = run_cli({"search", table, "--column", "v_hnsw_pq", "--vector", q, "--recall", "--stats=json", "-f", "null"});
  REQUIRE(j.exit_code == 0);
  CHECK(j.err.find("\"recall\":{") != std::string::npos);
  CHECK(j.err.find("\"method\":\"IVF_HNSW_PQ index 'v_hnsw_pq_idx'\"") != std::string::npos);
}

TEST_CASE("inspect meta: each vector index's metric, partitions and PQ layout", "[search][index][inspect]") {
  auto r = run_cli({"inspect", "meta", source_path("data/vectors/indexed"), "--json"});
  REQUIRE(r.exit_code == 0);
  std::map<std::string, Json> by_name;
  const Json meta = Json::parse(r.out);
  for (const auto& ix : meta.at("indices")) by_name[ix.at("name").get<std::string>()] = ix;
  const Json& pq = by_name.at("v_pq_idx").at("vector");
  CHECK(pq.at("metric") == "l2");
  CHECK(pq.at("partitions") == 8);  // numPartitions: 8 (scripts/gen-vectors.mjs)
  CHECK(pq.at("pq_sub_vectors") == 4);
  CHECK(pq.at("pq_bits") == 8);
  CHECK(pq.at("min_partition_rows").get<int>() <= pq.at("max_partition_rows").get<int>());
  CHECK(by_name.at("v_hnsw_sq_idx").at("vector").at("metric") == "cosine");
  CHECK(by_name.at("v_pq_idx").at("unindexed_rows") == 594);
  CHECK(by_name.at("v_rq_idx").at("vector").at("unreadable").get<std::string>().find("IVF_RQ") != std::string::npos);
  auto t = run_cli({"inspect", "meta", source_path("data/vectors/indexed")});
  CHECK(t.out.find("l2 distance, dimension 16, 8 partitions of ") != std::string::npos);
}

TEST_CASE("search: edges where LanceDB's behaviour is the answer", "[search][index]") {
  const std::string plain = source_path("data/vectors/plain");
  const std::string indexed = source_path("data/vectors/indexed");
  const std::string zero = "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]";
  const std::string q = vector_goldens().at("queries").at("v_hnsw_pq").at(0).at("vector").dump();
  // --postfilter without --filter: the ordinary top k (LanceDB ignores it).
  auto p = run_cli({"search", indexed, "--column", "v_hnsw_pq", "--vector", q, "--postfilter", "-c", "id", "-k", "2"});
  CHECK(p.exit_code == 0);
  CHECK(std::count(p.out.begin(), p.out.end(), '\n') == 2);
  // A zero query on a cosine index answered by the index alone: no rows, as LanceDB.
  auto z = run_cli({"search", indexed, "--column", "v_flat", "--vector", zero, "--fast-search"});
  CHECK(z.exit_code == 0);
  CHECK(z.out.empty());
  // HNSW's ef below k × refine is Lance's error.
  auto ef = run_cli({"search", indexed, "--column", "v_hnsw_pq", "--vector", q, "--ef", "1"});
  CHECK(ef.exit_code == 2);
  CHECK(ef.err.find("ef") != std::string::npos);
  // Fast search with no vector index searches nothing (LanceDB's fastSearch).
  auto f = run_cli({"search", plain, "--column", "vec", "--vector", zero, "--fast-search"});
  CHECK(f.exit_code == 0);
  CHECK(f.out.empty());
  // Another metric than an unread index's: every row, as LanceDB; its own metric: exit 3.
  auto rq = run_cli({"search", indexed, "--column", "v_rq", "--vector", q, "--metric", "l2", "-c", "id"});
  CHECK(rq.exit_code == 0);
  CHECK(std::count(rq.out.begin(), rq.out.end(), '\n') == 10);
  // Numbers outside float32: usage errors.
  for (const char* v : {"[1e999,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]", "[1e40,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]"}) {
    auto r = run_cli({"search", plain, "--column", "vec", "--vector", v});
    CHECK(r.exit_code == 2);
  }
}

TEST_CASE("search and scan: -o never writes over the input", "[search][cli]") {
  namespace fs = std::filesystem;
  TempDir dir("own-input");
  const fs::path ds = dir.path() / "t";
  fs::copy(source_path("data/vectors/plain"), ds, fs::copy_options::recursive);
  std::string data_file;
  for (const auto& e : fs::directory_iterator(ds / "data")) data_file = e.path().string();
  const auto before = fs::file_size(data_file);
  auto s = run_cli(
      {"search", ds.string(), "--column", "vec", "--vector", "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1]", "-o", data_file});
  CHECK(s.exit_code == 2);
  auto t = run_cli({"scan", data_file, "-o", data_file});
  CHECK(t.exit_code == 2);
  auto m = run_cli({"scan", ds.string(), "-o", (ds / "_versions" / "x.manifest").string()});
  CHECK(m.exit_code == 2);
  CHECK(fs::file_size(data_file) == before);
  CHECK(!fs::exists(ds / "_versions" / "x.manifest"));
  auto ok = run_cli({"scan", ds.string(), "-n", "1", "-o", dir.file("out.jsonl")});
  CHECK(ok.exit_code == 0);
}

TEST_CASE("search: an exact search keeps narrow output columns from its scan, rows as taken afterwards", "[search]") {
  // `-c id,vec`: the id column (8 bytes a row, an eighth of a 16-float vector) is read in the
  // scan and the result rows come from it (no read after the search); a prefilter matching every
  // row takes them afterwards instead. Both give the same output, for one query and several.
  const std::string table = source_path("data/vectors/plain");
  const TempDir dir("search-keep");
  const std::string queries = dir.file("q.jsonl");
  std::string lines;
  for (int q = 0; q < 7; ++q) {
    std::string v = "[";
    for (int i = 0; i < 16; ++i) v += (i ? "," : "") + std::to_string(((q * 31 + i * 7) % 23) / 7.0 - 1.5);
    lines += v + "]\n";
  }
  write_file(queries, lines);
  for (const std::string k : {"1", "5", "40"}) {
    INFO("k " << k);
    const auto kept = run_cli({"search", table, "--vector-file", queries, "-k", k, "--exact", "-c", "id,vec,_distance",
                               "-f", "jsonl", "--stats=json"});
    REQUIRE(kept.exit_code == 0);
    CHECK(kept.err.find("\"rows_from_scan\":true") != std::string::npos);
    const auto taken = run_cli({"search", table, "--vector-file", queries, "-k", k, "--exact", "-c", "id,vec,_distance",
                                "--filter", "id >= 0", "-f", "jsonl", "--stats=json"});
    REQUIRE(taken.exit_code == 0);
    CHECK(taken.err.find("\"rows_from_scan\":false") != std::string::npos);
    CHECK(kept.out == taken.out);
    CHECK(std::count(kept.out.begin(), kept.out.end(), '\n') == 7 * std::stoi(k));
  }
  // A variable-width column (strings: their bytes are not known up front) is taken afterwards.
  const auto wide = run_cli({"search", table, "--vector", "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]", "--exact", "-c",
                             "id,cat,vec", "-f", "null", "--stats=json"});
  REQUIRE(wide.exit_code == 0);
  CHECK(wide.err.find("\"rows_from_scan\":false") != std::string::npos);
}
