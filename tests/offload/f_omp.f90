! Fortran OpenMP offload: array syntax in target, assumed-shape dummies,
! allocatable arrays, reductions, declare target module procedures,
! target data/update, derived types, intrinsic functions.
module devmod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type :: pt
    real(dp) :: x, y
    integer :: id
  end type
contains
  pure function poly(x) result(r)
    !$omp declare target
    real(dp), intent(in) :: x
    real(dp) :: r
    r = ((0.125_dp * x + 0.25_dp) * x - 0.5_dp) * x + 1.0_dp
  end function
  ! (a recursive module function here fails in the nvptx offload compiler:
  !  "alias definitions not supported in this configuration")
  function fibr(n) result(r)
    !$omp declare target
    integer, intent(in) :: n
    integer :: r, k, p, q
    p = 0; q = 1
    do k = 1, n
      r = p + q; p = q; q = r
    end do
    r = p
  end function
end module

program f_omp
  use omp_lib
  use devmod
  implicit none
  integer, parameter :: n = 2000, m = 40
  real(dp), allocatable :: a(:), b(:), c(:), ref(:)
  real(dp) :: mat(m, m), v(m), w(m), wref(m), s, sref, mx, mxref

  integer :: i, j, checks, fails, nd, ondev, isum, isumref, fib(20)
  type(pt) :: pts(100)
  real(dp) :: ang(100), angref(100)

  checks = 0; fails = 0
  nd = omp_get_num_devices()
  ondev = -1
  !$omp target map(from: ondev)
  if (omp_is_initial_device()) then
    ondev = 0
  else
    ondev = 1
  end if
  !$omp end target
  print '(a,i0,a,i0)', 'f_omp: omp_get_num_devices()=', nd, ', target ran on device=', ondev
  call chk(ondev == merge(1, 0, nd > 0), 'target region placement')

  allocate(a(n), b(n), c(n), ref(n))
  do i = 1, n
    a(i) = i * 0.5_dp
    b(i) = sin(real(i, dp))
  end do
  !$omp target teams distribute parallel do map(to: a, b) map(from: c)
  do i = 1, n
    c(i) = 2.0_dp * a(i) + b(i) + poly(b(i))
  end do
  do i = 1, n
    ref(i) = 2.0_dp * a(i) + b(i) + poly(b(i))
  end do
  call chk(maxval(abs(c - ref)) <= 1e-13_dp * maxval(abs(ref)), 'axpy + declare target function')

  ! array syntax inside target
  !$omp target map(tofrom: c) map(to: a)
  c(1:n) = c(1:n) - 2.0_dp * a(1:n)
  !$omp end target
  ref = ref - 2.0_dp * a
  call chk(maxval(abs(c - ref)) <= 1e-13_dp * maxval(abs(ref)), 'array syntax in target')

  ! reductions
  s = 0; mx = -huge(1.0_dp); isum = 0
  !$omp target teams distribute parallel do map(to: b) reduction(+: s, isum) reduction(max: mx)
  do i = 1, n
    s = s + b(i)
    mx = max(mx, b(i))
    isum = isum + mod(i, 7)
  end do
  sref = sum(b); mxref = maxval(b); isumref = sum(mod([(i, i = 1, n)], 7))
  call chk(abs(s - sref) <= 1e-12_dp, 'sum reduction')
  call chk(mx == mxref, 'max reduction')
  call chk(isum == isumref, 'integer reduction')

  ! matrix-vector with collapse and target data + update
  do j = 1, m
    do i = 1, m
      mat(i, j) = real(i - j, dp) / m
    end do
    v(j) = j
  end do
  wref = matmul(mat, v)
  !$omp target data map(to: mat) map(tofrom: v) map(from: w)
  !$omp target teams distribute parallel do
  do i = 1, m
    w(i) = 0
    do j = 1, m
      w(i) = w(i) + mat(i, j) * v(j)
    end do
  end do
  v = 2 * v
  !$omp target update to(v)
  !$omp target teams distribute parallel do
  do i = 1, m
    w(i) = w(i) + sum(mat(i, :) * v)
  end do
  !$omp end target data
  wref = wref + matmul(mat, 2 * [(real(j, dp), j = 1, m)])
  call chk(maxval(abs(w - wref)) <= 1e-12_dp, 'matvec in target data')

  ! derived types and intrinsics
  do i = 1, 100
    pts(i)%x = cos(i * 0.1_dp); pts(i)%y = sin(i * 0.2_dp); pts(i)%id = i
  end do
  !$omp target teams distribute parallel do map(to: pts) map(from: ang)
  do i = 1, 100
    ang(i) = atan2(pts(i)%y, pts(i)%x) + sqrt(pts(i)%x**2 + pts(i)%y**2) + real(pts(i)%id, dp) + exp(-pts(i)%x)
  end do
  do i = 1, 100
    angref(i) = atan2(pts(i)%y, pts(i)%x) + sqrt(pts(i)%x**2 + pts(i)%y**2) + real(pts(i)%id, dp) + exp(-pts(i)%x)
  end do
  call chk(maxval(abs(ang - angref)) <= 1e-12_dp, 'derived type + intrinsics')

  ! recursion
  !$omp target map(from: fib)
  do i = 1, 20
    fib(i) = fibr(i)
  end do
  !$omp end target
  call chk(fib(20) == 6765 .and. fib(10) == 55, 'declare target module function')

  ! atomic
  isum = 0
  !$omp target teams distribute parallel do map(tofrom: isum)
  do i = 1, n
    !$omp atomic
    isum = isum + 1
  end do
  call chk(isum == n, 'atomic update')

  call finish('f_omp')
contains
  include 'checks.inc'
  integer function sp_kind()
    sp_kind = kind(1.0)
  end function
end program
