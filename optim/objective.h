// Placeholder replaced by the optimizer layer.
#pragma once
