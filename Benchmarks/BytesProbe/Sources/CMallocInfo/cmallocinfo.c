#include "cmallocinfo.h"
