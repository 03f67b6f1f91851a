#ifndef RXANATOMY_CGRAPHVIZ_SHIM_H
#define RXANATOMY_CGRAPHVIZ_SHIM_H
#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>
#endif
