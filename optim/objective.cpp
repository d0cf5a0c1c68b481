#include "optim/objective.h"
