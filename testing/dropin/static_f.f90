! testing/dropin/static_f.f90 -- a Fortran program linked statically against
! libblasx.a: DGEMM and ZHERK through the standard Fortran interface,
! checked against plain loops.  run_static.sh also checks (BLASX_STATS=1)
! that blasx served both calls.
program static_f
  implicit none
  integer, parameter :: n = 29
  double precision :: a(n, n), b(n, n), c(n, n), r(n, n), err
  complex(kind(1d0)) :: za(n, n), zc(n, n), zr(n, n)
  integer :: i, j, l
  do j = 1, n
    do i = 1, n
      a(i, j) = dble(mod(i + 2 * j, 9)) - 4d0
      b(i, j) = dble(mod(3 * i + j, 5)) * 0.5d0
      c(i, j) = 1d0
      za(i, j) = cmplx(a(i, j), b(i, j), kind(1d0))
      zc(i, j) = (0d0, 0d0)
    end do
  end do
  call dgemm('N', 'N', n, n, n, 1.5d0, a, n, b, n, 2d0, c, n)
  call zherk('L', 'N', n, n, 1d0, za, n, 0d0, zc, n)
  err = 0d0
  do j = 1, n
    do i = 1, n
      r(i, j) = 2d0
      zr(i, j) = (0d0, 0d0)
      do l = 1, n
        r(i, j) = r(i, j) + 1.5d0 * a(i, l) * b(l, j)
        zr(i, j) = zr(i, j) + za(i, l) * conjg(za(j, l))
      end do
      err = max(err, abs(r(i, j) - c(i, j)))
      if (i >= j) err = max(err, abs(zr(i, j) - zc(i, j)))
    end do
  end do
  if (err < 1d-9) then
    print '(a, es9.2, a)', 'static_f: dgemm/zherk max error ', err, ': PASS'
  else
    print '(a, es9.2, a)', 'static_f: dgemm/zherk max error ', err, ': FAIL'
    stop 1
  end if
end program static_f
