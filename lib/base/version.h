/* The suite's version, printed by every program's --version. */
#ifndef ZC_VERSION_H
#define ZC_VERSION_H

#define ZC_VERSION "2.0"

#endif
