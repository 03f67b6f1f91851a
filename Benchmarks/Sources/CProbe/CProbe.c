// The target's functions are inline in include/CProbe.h; SwiftPM needs a source file.
#include "CProbe.h"
