#include <ltdl.h>
#include <dlfcn.h>
