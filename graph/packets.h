// Eigen's vector packet of doubles on this build (8 lanes with AVX-512, 4 with AVX, 2 with SSE),
// for the kernels that drive Eigen's packet functions (pload, pmadd, pexp …) themselves.
#pragma once

#include <Eigen/Core>

#include "graph/tensor.h"

namespace dagml {

using DoublePacket = Eigen::internal::packet_traits<double>::type;
inline constexpr Index kDoubleLanes = Eigen::internal::unpacket_traits<DoublePacket>::size;

}  // namespace dagml
