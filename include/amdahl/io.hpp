#pragma once
/// \file Reading profiles from JSON, CSV/TSV, Markdown and pasted plain-text tables.
#include <istream>
#include <optional>
#include <string>
#include <string_view>

#include "amdahl/profile.hpp"

namespace amdahl {

enum class InputFormat { json, csv, tsv, markdown, text };

/// Parses "json", "csv", "tsv", "md"/"markdown", "text"/"txt".
std::optional<InputFormat> parse_input_format(std::string_view name);

/// The format a file's content looks like (its extension is not consulted).
InputFormat sniff_format(std::string_view content);

/// Parses a profile from `content`. `source` names the input in messages ("step.csv", "<stdin>").
/// Throws amdahl::Error naming the file, line (or JSON path) and the problem.
Profile parse_profile(std::string_view content, const std::string& source,
                      std::optional<InputFormat> format = std::nullopt);

/// Reads a whole file (or standard input for "-") into memory. Throws amdahl::Error for missing
/// files, directories and binary data.
std::string read_input(const std::string& path, std::istream& stdin_stream);

/// Reads and parses `path` ("-" for `stdin_stream`). The format comes from `format`, then the
/// extension (.json, .csv, .tsv, .md), then the content.
Profile load_profile(const std::string& path, std::istream& stdin_stream,
                     std::optional<InputFormat> format = std::nullopt);

}  // namespace amdahl
