#include <stdio.h>
#include <stdlib.h>
#include <zbar.h>
