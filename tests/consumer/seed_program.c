/* A C program written against the seed manual (LibTomMath 0.08, sections 3-4), unchanged
 * except for the include. Built as C by tests/consumer/check_install.sh against an installed
 * mpbatch, once through find_package(mpbatch) and once through pkg-config. */
#include <mpbatch/bn.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  mp_int a, b, c, d;
  unsigned char buf[600];
  if (mp_init(&a) != MP_OKAY || mp_init(&b) != MP_OKAY || mp_init(&c) != MP_OKAY ||
      mp_init_size(&d, 4) != MP_OKAY) {
    printf("Error initializing a mp_int.\n");
    return 1;
  }
  /* 2^127 - 1 is prime: 3^(p-1) = 1 mod p */
  if (mp_read_radix(&a, (unsigned char *)"170141183460469231731687303715884105727", 10) != MP_OKAY) return 2;
  mp_set(&b, 3);
  if (mp_sub_d(&a, 1, &c) != MP_OKAY) return 3;
  if (mp_exptmod(&b, &c, &a, &d) != MP_OKAY) return 4;
  if (mp_cmp_d(&d, 1) != MP_EQ) return 5;
  /* seed quirk: mp_init_copy(a, b) initialises a and copies b into it */
  mp_clear(&c);
  if (mp_init_copy(&c, &a) != MP_OKAY || mp_cmp(&c, &a) != MP_EQ) return 6;
  if (mp_mul(&a, &a, &c) != MP_OKAY || mp_sqr(&a, &d) != MP_OKAY || mp_cmp(&c, &d) != MP_EQ) return 7;
  if (mp_div_2d(&c, 127, &d, NULL) != MP_OKAY) return 8;
  if (mp_toradix(&d, buf, 16) != MP_OKAY || strcmp((char *)buf, "7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFE") != 0) return 9;
  if (mp_invmod(&b, &a, &d) != MP_OKAY || mp_mulmod(&b, &d, &a, &c) != MP_OKAY || mp_cmp_d(&c, 1) != MP_EQ) return 10;
  printf("seed program: ok (%s)\n", mp_error_to_string(MP_OKAY));
  mp_clear(&a);
  mp_clear(&b);
  mp_clear(&c);
  mp_clear(&d);
  return 0;
}
