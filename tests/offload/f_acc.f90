! Fortran OpenACC: parallel loop, kernels, gang/vector nest with
! reductions, data / enter data / update, routine seq, async + wait.
module accmod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  pure function sq_plus(x) result(r)
    !$acc routine seq
    real(dp), intent(in) :: x
    real(dp) :: r
    r = x * x + 1.0_dp
  end function
end module

program f_acc
  use openacc
  use accmod
  implicit none
  integer, parameter :: n = 3000, nr = 32, nc = 64
  real(dp) :: x(n), y(n), ref(n), a(nr, nc), rs(nr), rsref(nr), tot, totref
  real(dp), allocatable :: h(:)
  integer :: i, j, checks, fails, nd, ondev, imx
  checks = 0; fails = 0
  nd = acc_get_num_devices(acc_device_nvidia)
  ondev = -1
  !$acc parallel num_gangs(1) copyout(ondev)
  if (acc_on_device(acc_device_not_host)) then
    ondev = 1
  else
    ondev = 0
  end if
  !$acc end parallel
  print '(a,i0,a,i0)', 'f_acc: acc_get_num_devices(acc_device_nvidia)=', nd, ', on device=', ondev
  call chk(ondev == merge(1, 0, nd > 0), 'compute region placement')

  do i = 1, n
    x(i) = i * 0.25_dp; y(i) = mod(i, 5)
  end do
  ref = 2.0_dp * x + y
  !$acc parallel loop copyin(x) copy(y)
  do i = 1, n
    y(i) = 2.0_dp * x(i) + y(i)
  end do
  call chk(all(y == ref), 'parallel loop')

  !$acc kernels copyin(x) copyout(y)
  y(:) = sq_plus(1.0_dp) * x(:)
  !$acc end kernels
  call chk(all(y == 2.0_dp * x), 'kernels array syntax + routine')

  do j = 1, nc
    do i = 1, nr
      a(i, j) = mod(i * 7 + j * 3, 11) - 5
    end do
  end do
  rsref = sum(a, dim=2); totref = sum(a)
  !$acc parallel loop gang num_gangs(8) vector_length(32) copyin(a) copyout(rs)
  do i = 1, nr
    tot = 0
    !$acc loop vector reduction(+: tot)
    do j = 1, nc
      tot = tot + a(i, j)
    end do
    rs(i) = tot
  end do
  call chk(all(rs == rsref), 'gang/vector row reduction')
  tot = 0; imx = -1000
  !$acc parallel loop collapse(2) reduction(+: tot) reduction(max: imx) copyin(a)
  do j = 1, nc
    do i = 1, nr
      tot = tot + a(i, j)
      imx = max(imx, int(a(i, j)) + i)
    end do
  end do
  call chk(tot == totref, 'collapse(2) sum reduction')
  call chk(imx == maxval(int(a) + spread([(i, i = 1, nr)], 2, nc)), 'max reduction')

  allocate(h(n))
  h = [(real(i, dp), i = 1, n)]
  !$acc enter data copyin(h)
  !$acc parallel loop present(h)
  do i = 1, n
    h(i) = sq_plus(h(i))
  end do
  !$acc update self(h(1:10))
  call chk(h(3) == 10.0_dp, 'update self section')
  !$acc parallel loop present(h) async(1)
  do i = 1, n
    h(i) = h(i) - 1.0_dp
  end do
  !$acc wait(1)
  !$acc exit data copyout(h)
  call chk(all(h == [(real(i, dp)**2, i = 1, n)]), 'enter/exit data + async')

  !$acc data copy(x)
  !$acc parallel loop
  do i = 1, n
    x(i) = -x(i)
  end do
  !$acc end data
  call chk(all(x == [(-i * 0.25_dp, i = 1, n)]), 'data region')

  imx = 0
  !$acc parallel loop copy(imx)
  do i = 1, n
    !$acc atomic update
    imx = imx + 2
  end do
  call chk(imx == 2 * n, 'atomic update')

  call finish('f_acc')
contains
  include 'checks.inc'
end program
