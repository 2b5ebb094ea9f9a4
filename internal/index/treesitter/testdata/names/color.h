// A C++ header named .h, with annotation macros the parser cannot expand.
#include "format.h"

FMT_BEGIN_NAMESPACE

class text_style {
 public:
  FMT_CONSTEXPR text_style(int em = 0) FMT_NOEXCEPT
      : ems(em) {}

  FMT_CONSTEXPR bool has_emphasis() const FMT_NOEXCEPT { return ems != 0; }

 private:
  int ems;
};

FMT_CONSTEXPR text_style fg(int c) FMT_NOEXCEPT { return text_style(c); }

FMT_END_NAMESPACE
