#include "read/column_reader.h"
#include "read/field_reader.h"
#include "structural/assemble.h"

namespace lance::read {

namespace {

class StructuralFieldReader final : public FieldReader {
 public:
  /// `field`: a top-level field of the file's schema, or a pruned copy of one (see
  /// sub_field_reader.cpp); `cols`: the file columns of its structural leaves, in order.
  StructuralFieldReader(std::shared_ptr<format::FileReader> file, std::shared_ptr<const format::LanceField> field,
                        const std::vector<uint32_t>& cols, const ReaderOptions& options)
      : file_(std::move(file)), field_(std::move(field)) {
    output_ = structural::output_field(field_->arrow);
    std::vector<const format::LanceField*> leaves;
    format::structural_leaves(*field_, leaves);
    check_corrupt(cols.size() == leaves.size(), "field '{}' maps to {} columns, expected {}", field_->name, cols.size(),
                  leaves.size());
    for (size_t i = 0; i < leaves.size(); ++i) {
      const auto& col = file_->columns().at(cols[i]);
      if (col.num_rows() != file_->num_rows())
        throw Error(ErrorKind::corrupt,
                    fmt::format("{}: column {} (field '{}') has {} rows but the file has {}", file_->path(), cols[i],
                                leaves[i]->name, col.num_rows(), file_->num_rows()));
      columns_.push_back(
          std::make_unique<ColumnReader>(file_, cols[i], leaves[i]->arrow->type, leaves[i]->name, options));
    }
  }

  const FieldPtr& output_field() const override { return output_; }

  ArrayPtr read(uint64_t begin, uint64_t end) override { return read_planned(*this, file_->io(), begin, end); }

  struct StructuralPending : Pending {
    std::vector<std::unique_ptr<ColumnReader::Pending>> columns;
    uint64_t num_rows = 0;
  };

  std::unique_ptr<Pending> plan(std::span<const RowRange> ranges, MetadataRounds& rounds) override {
    auto p = std::make_unique<StructuralPending>();
    p->ranges.assign(ranges.begin(), ranges.end());
    for (const auto& r : ranges) p->num_rows += r.size();
    for (auto& c : columns_) p->columns.push_back(c->plan(ranges, rounds));
    return p;
  }

  void submit(Pending& pending) override {
    auto& p = static_cast<StructuralPending&>(pending);
    for (size_t i = 0; i < columns_.size(); ++i) columns_[i]->submit(*p.columns[i]);
  }

  ArrayPtr finish(std::unique_ptr<Pending> pending) override {
    auto& p = static_cast<StructuralPending&>(*pending);
    std::vector<structural::LeafData> leaves;
    for (size_t i = 0; i < columns_.size(); ++i) leaves.push_back(columns_[i]->finish(std::move(p.columns[i])));
    if (!p.ranges.empty())
      for (auto& c : columns_) c->release_before(p.ranges.front().begin);
    return with_context([&] { return fmt::format("{}: field '{}'", file_->path(), field_->name); },
                        [&] { return structural::assemble_field(*field_, leaves, p.num_rows, &level_plans_); });
  }

 private:
  std::shared_ptr<format::FileReader> file_;
  std::shared_ptr<const format::LanceField> field_;
  mutable structural::LevelPlans level_plans_;  ///< built once per field, shared by its batches (thread-safe)
  FieldPtr output_;
  std::vector<std::unique_ptr<ColumnReader>> columns_;
};

}  // namespace

ArrayPtr read_planned(FieldReader& reader, io::IoScheduler& io, uint64_t begin, uint64_t end) {
  const RowRange r{begin, end};
  MetadataRounds rounds;
  auto p = reader.plan(std::span<const RowRange>(&r, 1), rounds);
  rounds.run(io, begin);
  reader.submit(*p);
  return reader.finish(std::move(p));
}

std::unique_ptr<FieldReader::Pending> FieldReader::plan(std::span<const RowRange> ranges, MetadataRounds&) {
  auto p = std::make_unique<Pending>();
  p->ranges.assign(ranges.begin(), ranges.end());
  return p;
}

ArrayPtr FieldReader::finish(std::unique_ptr<Pending> pending) {
  std::vector<ArrayPtr> parts;
  for (const auto& r : pending->ranges) parts.push_back(read(r.begin, r.end));
  if (parts.empty()) return make_null_array(output_field()->type, 0);
  return concat_arrays(output_field()->type, parts);
}

std::unique_ptr<FieldReader> make_structural_field_reader(std::shared_ptr<format::FileReader> file, size_t field_index,
                                                          const ReaderOptions& options) {
  // Aliasing pointer: the field lives in the file's schema, kept alive by `file`.
  std::shared_ptr<const format::LanceField> field(file, &file->schema().fields.at(field_index));
  const auto& cols = file->field_columns().at(field_index);
  return std::make_unique<StructuralFieldReader>(std::move(file), std::move(field), cols, options);
}

std::unique_ptr<FieldReader> make_structural_field_reader(std::shared_ptr<format::FileReader> file,
                                                          std::shared_ptr<const format::LanceField> field,
                                                          const std::vector<uint32_t>& columns,
                                                          const ReaderOptions& options) {
  return std::make_unique<StructuralFieldReader>(std::move(file), std::move(field), columns, options);
}

std::unique_ptr<FieldReader> make_field_reader(std::shared_ptr<format::FileReader> file, size_t field_index,
                                               const ReaderOptions& options) {
  if (file->v1()) return make_v1_field_reader(std::move(file), field_index, options);
  if (file->version().is_structural()) return make_structural_field_reader(std::move(file), field_index, options);
  return make_v2_0_field_reader(std::move(file), field_index, options);
}

}  // namespace lance::read
