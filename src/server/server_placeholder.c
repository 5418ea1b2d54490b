/* Keeps the schach_server library non-empty until its modules land. */
#include "service.h"
