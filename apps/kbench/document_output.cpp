#include "document_output.hpp"

#include <iostream>

#include "core/error.hpp"
#include "io/output_file.hpp"

namespace kbench::cli {

bool write_document_or_stdout(const std::string& path, const std::string& document, std::string_view what) {
  try {
    io::write_output_file(path, document);
    return true;
  } catch (const OutputError& e) {
    std::cerr << "kbench: error: " << e.what() << "; the " << what << " went to stdout instead\n";
    std::cout << document;
    return false;
  }
}

}  // namespace kbench::cli
