// The `-f arrow` writer: record batches as an Arrow IPC stream (arrow/ipc_writer.h).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "output/sink.h"
#include "output/writer.h"

namespace lance::output {

/// A BatchWriter producing an Arrow IPC stream on `sink` (which must outlive it): the schema
/// message with `schema_metadata` as its custom_metadata and every field's metadata, one
/// record batch message per `write`, and the end-of-stream marker on `finish`.
std::unique_ptr<BatchWriter> make_arrow_writer(OutputSink& sink,
                                               std::map<std::string, std::string> schema_metadata = {});

}  // namespace lance::output
