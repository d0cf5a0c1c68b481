// Writing the options of an older model-file layout in the tests (the archive's options
// serialisation skips, when reading, the fields a layout did not have: archive.h).
#pragma once

#include <cstdint>

namespace dagml::testing {

// The fields of an options struct O that layout `layout` had, those with O::field_layout(name) ≤
// layout, in their order: ar(OptionsOfLayout<O>{options, 1}) writes them as a layout-1 file did.
template <class O>
struct OptionsOfLayout {
  O& options;
  std::uint32_t layout;
  template <class V>
  void visit(V&& v) {
    options.visit([&](const char* name, auto& field, const char* doc) {
      if (O::field_layout(name) <= layout) v(name, field, doc);
    });
  }
};

}  // namespace dagml::testing
