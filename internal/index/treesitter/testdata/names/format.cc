#include "fmt/format.h"

namespace fmt {
namespace detail {

template <typename Char> struct ansi_color_escape {
  ansi_color_escape(const char* esc) { (void)esc; }
  const Char* begin() const { return buffer; }
  Char buffer[7];
};

void report_error(int code) {}

}  // namespace detail

class text_style {
 public:
  text_style& operator|=(const text_style& rhs) { return *this; }
  bool has_foreground() const { return set_; }

  struct iterator {
    int next() { return 0; }
  };

 private:
  bool set_;
};

template <typename T, typename Char> struct formatter<std::vector<T>, Char> {
  auto parse(int ctx) -> int { return ctx; }
};

void detail::print(int fd) {}

int text_style::iterator::step() { return 1; }

template <typename T> T buffer<T>::get() const { return T(); }

void vprint(int x) {}

}  // namespace fmt

int format_error::code() const { return 0; }
