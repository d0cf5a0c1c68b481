// Note [Constructing from options]
// Every class of optim/ configured by one aggregate XxxOptions declares the same two constructors:
//
//   explicit Xxx(XxxOptions options = {});   // Xxx(), Xxx({.field = v}), Xxx(XxxOptions{…})
//   explicit Xxx(DefaultOptions) : Xxx() {}  // Xxx({})
//
// so that all of Xxx(), Xxx({}), Xxx({.field = v}) and Xxx(XxxOptions{.field = v}) compile and
// store the options given (tests/optim/options_construction_test.cpp checks every class).
//
// The second constructor is what makes Xxx({}) compile. With the first one alone, {} converts to
// XxxOptions (aggregate initialisation) and, through Xxx's default constructor, to Xxx for Xxx's
// own copy and move constructors. Both are user-defined conversions, which overload resolution
// cannot rank against each other, so the call is ambiguous. A separate default constructor or an
// options parameter taken by reference changes nothing; an `explicit` default constructor
// satisfies Clang but not GCC 12. A constructor template for the options compiles, but the
// non-template move constructor then wins the tie: Xxx({}) is Xxx(Xxx()), and the options
// constructor is never called. An empty {} converts to an enumeration by the identity
// conversion, a standard conversion that beats both, so Xxx({}) picks Xxx(DefaultOptions), which
// delegates to Xxx() and so to Xxx(XxxOptions{}). Nothing but an empty {} (or DefaultOptions{})
// converts to the scoped enumeration: not 0, not nullptr, not a designated initializer list, so
// no other call changes meaning.
#pragma once

namespace dagml {

// The argument of Xxx({}): the default options (Note [Constructing from options]).
enum class DefaultOptions {};

}  // namespace dagml
