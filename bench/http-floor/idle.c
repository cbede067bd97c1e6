/* The floor of the floor: a C process that does nothing (bench/http-floor.sh). */
#include <stdio.h>
#include <unistd.h>

int main(void) {
    printf("ready\n");
    fflush(stdout);
    pause();
    return 0;
}
